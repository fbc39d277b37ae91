//! KIF/KI2: any bytes are read without panicking (decoding, then the
//! reader and the move checks); a game that reads is written as KIF and as
//! KI2, and both read back to the same moves and start position.
#![no_main]
use board_records::kif;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let limits = kif::Limits {
        max_line_len: 4096,
        max_moves: 4096,
        ..kif::Limits::DEFAULT
    };
    let Ok(game) = kif::read_with(data, None, limits) else {
        return;
    };
    let moves: Vec<_> = game.moves().collect();
    for text in [game.to_kif(None), game.to_ki2(None)] {
        let again = kif::read_str(&text)
            .unwrap_or_else(|e| panic!("our output does not read back: {e}\n{text}"));
        assert!(again.start.same_position(&game.start), "{text}");
        assert_eq!(again.moves().collect::<Vec<_>>(), moves, "{text}");
    }
});
