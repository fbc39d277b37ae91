//! One reading per message for a person (`Message::describe`, what
//! transcripts and `boardwire dxp decode` print), checked on the examples
//! of the spec note (spec/damexchange.md, *Messages*: one example per
//! message); `Display` stays the wire form.

use damexchange::{Message, decode};

fn reading(wire: &str) -> String {
    let msg: Message = decode(wire.as_bytes()).unwrap();
    assert_eq!(msg.to_string(), wire, "Display is the wire form");
    msg.describe().to_string()
}

#[test]
fn the_spec_examples_in_words() {
    // *GAMEREQ*: 60 minutes for 65 moves, the follower plays White.
    assert_eq!(
        reading("R01Tornado voor Windows 4.0        W060065A"),
        "GAMEREQ: version 01, initiator \"Tornado voor Windows 4.0\", follower plays white, 60 min for 65 moves, standard start"
    );
    // *GAMEACC*: accepted.
    assert_eq!(
        reading("ATornado voor Windows 4.0        0"),
        "GAMEACC: follower \"Tornado voor Windows 4.0\", accepted"
    );
    // *MOVE*: 6-11; 5x25 taking 4 pieces (captured squares as sent).
    assert_eq!(reading("M0012061100"), "MOVE 6-11, 12 s");
    assert_eq!(
        reading("M001205250422122320"),
        "MOVE 5x25 taking 22,12,23,20, 12 s"
    );
    // *GAMEEND*: no reason, the sender will play another game.
    assert_eq!(reading("E00"), "GAMEEND: no reason, will play another game");
    // *CHAT*.
    assert_eq!(
        reading("CWhat do you think about move 35?"),
        "CHAT: What do you think about move 35?"
    );
    // *BACKREQ*: back to move 5, Black to move; *BACKACC* `1`: refused.
    assert_eq!(reading("B005Z"), "BACKREQ: back to move 5, black to move");
    assert_eq!(reading("K1"), "BACKACC: refused");
    // Not one of the seven: said so, never mistaken for a message.
    assert_eq!(reading("X12"), "unrecognised message: header 'X', 3 bytes");
}
