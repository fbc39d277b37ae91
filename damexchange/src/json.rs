//! A message for programs: one JSON object, its fields named in the
//! spec's terms ([`spec::damexchange`](crate::spec::damexchange),
//! *Messages*), what `boardwire dxp decode --json` prints. Written by
//! `Display` without allocating; [`Message::describe`] is the reading for
//! a person.
//!
//! | message | object |
//! |---|---|
//! | GAMEREQ | `{"type":"GAMEREQ","version":1,"initiator":"..","follower_color":"W"/"Z","minutes":5,"moves":0,"position":"A"}`, a set-up position as `{"side_to_move":"W","board":"<50 letters>"}` |
//! | GAMEACC | `{"type":"GAMEACC","follower":"..","code":0}` |
//! | MOVE | `{"type":"MOVE","time":12,"from":5,"to":25,"captured":[22,12,23,20]}` (captured squares as sent) |
//! | GAMEEND | `{"type":"GAMEEND","reason":0,"stop":0}` |
//! | CHAT | `{"type":"CHAT","text":".."}` |
//! | BACKREQ | `{"type":"BACKREQ","move_number":5,"color":"Z"}` |
//! | BACKACC | `{"type":"BACKACC","code":1}` |
//! | unknown kind | `{"type":"unrecognised","text":".."}` (bytes not UTF-8 as U+FFFD) |
//!
//! Strings escape `"`, `\` and the control characters U+0000..U+001F and
//! U+007F as `\uXXXX`.
//!
//! ```
//! use damexchange::json::Json;
//! use damexchange::{Message, decode};
//! let msg: Message = decode(b"M0000322800").unwrap();
//! assert_eq!(
//!     Json::new(&msg).to_string(),
//!     r#"{"type":"MOVE","time":0,"from":32,"to":28,"captured":[]}"#
//! );
//! ```

use core::fmt::{self, Write};

use crate::message::{Message, StartPosition};
use crate::types::board_letter;

/// A [`Message`] as one JSON object (see the [module docs](self)).
#[derive(Clone, Copy, Debug)]
pub struct Json<'m, 'a>(&'m Message<'a>);

impl<'m, 'a> Json<'m, 'a> {
    /// `message` as JSON.
    pub fn new(message: &'m Message<'a>) -> Json<'m, 'a> {
        Json(message)
    }
}

/// A JSON string: quoted, `"` `\` and control characters escaped.
struct Str<'s>(&'s str);

impl fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        escape(f, self.0)?;
        f.write_char('"')
    }
}

/// `s` inside a JSON string.
fn escape(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    for c in s.chars() {
        match c {
            '"' | '\\' => write!(f, "\\{c}")?,
            c if u32::from(c) < 0x20 || c == '\x7f' => write!(f, "\\u{:04x}", u32::from(c))?,
            c => f.write_char(c)?,
        }
    }
    Ok(())
}

impl fmt::Display for Json<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = |b: u8| char::from(b);
        match self.0 {
            Message::GameReq(r) => {
                write!(
                    f,
                    "{{\"type\":\"GAMEREQ\",\"version\":{},\"initiator\":{},\"follower_color\":\"{}\",\"minutes\":{},\"moves\":{},\"position\":",
                    r.version(),
                    Str(r.initiator().as_str()),
                    letter(r.follower_color().letter()),
                    r.minutes(),
                    r.moves()
                )?;
                match r.position() {
                    StartPosition::Initial => f.write_str("\"A\"")?,
                    StartPosition::Setup(s) => {
                        let side = letter(s.side_to_move.letter());
                        write!(f, "{{\"side_to_move\":\"{side}\",\"board\":\"")?;
                        for &piece in s.board.iter() {
                            f.write_char(letter(board_letter(piece)))?;
                        }
                        f.write_str("\"}")?;
                    }
                }
            }
            Message::GameAcc(a) => write!(
                f,
                "{{\"type\":\"GAMEACC\",\"follower\":{},\"code\":{}",
                Str(a.follower.as_str()),
                a.code.code()
            )?,
            Message::Move(mv) => {
                write!(
                    f,
                    "{{\"type\":\"MOVE\",\"time\":{},\"from\":{},\"to\":{},\"captured\":[",
                    mv.time(),
                    mv.from(),
                    mv.to()
                )?;
                for (k, sq) in mv.captured().as_slice().iter().enumerate() {
                    let comma = if k == 0 { "" } else { "," };
                    write!(f, "{comma}{}", sq.number())?;
                }
                f.write_char(']')?;
            }
            Message::GameEnd(e) => write!(
                f,
                "{{\"type\":\"GAMEEND\",\"reason\":{},\"stop\":{}",
                e.reason.code(),
                e.stop.code()
            )?,
            Message::Chat(c) => write!(f, "{{\"type\":\"CHAT\",\"text\":{}", Str(c.text.as_str()))?,
            Message::BackReq(b) => write!(
                f,
                "{{\"type\":\"BACKREQ\",\"move_number\":{},\"color\":\"{}\"",
                b.move_number(),
                letter(b.color().letter())
            )?,
            Message::BackAcc(k) => write!(f, "{{\"type\":\"BACKACC\",\"code\":{}", k.code.code())?,
            Message::Unrecognised(u) => {
                f.write_str("{\"type\":\"unrecognised\",\"text\":\"")?;
                for chunk in u.as_bytes().utf8_chunks() {
                    escape(f, chunk.valid())?;
                    if !chunk.invalid().is_empty() {
                        f.write_char(char::REPLACEMENT_CHARACTER)?;
                    }
                }
                f.write_char('"')?;
            }
        }
        f.write_char('}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode;
    use alloc::string::ToString;

    fn json(wire: &[u8]) -> alloc::string::String {
        Json::new(&decode::<Message>(wire).unwrap()).to_string()
    }

    /// The examples of spec/damexchange.md, *Messages*.
    #[test]
    fn the_spec_examples_as_json() {
        assert_eq!(
            json(b"R01Tornado voor Windows 4.0        W060065A"),
            r#"{"type":"GAMEREQ","version":1,"initiator":"Tornado voor Windows 4.0","follower_color":"W","minutes":60,"moves":65,"position":"A"}"#
        );
        assert_eq!(
            json(b"ATornado voor Windows 4.0        0"),
            r#"{"type":"GAMEACC","follower":"Tornado voor Windows 4.0","code":0}"#
        );
        assert_eq!(
            json(b"M001205250422122320"),
            r#"{"type":"MOVE","time":12,"from":5,"to":25,"captured":[22,12,23,20]}"#
        );
        assert_eq!(json(b"E00"), r#"{"type":"GAMEEND","reason":0,"stop":0}"#);
        assert_eq!(
            json(b"CWhat do you think about \"35\"?\x01"),
            r#"{"type":"CHAT","text":"What do you think about \"35\"?\u0001"}"#
        );
        assert_eq!(
            json(b"B005Z"),
            r#"{"type":"BACKREQ","move_number":5,"color":"Z"}"#
        );
        assert_eq!(json(b"K1"), r#"{"type":"BACKACC","code":1}"#);
        assert_eq!(json(b"X\\y"), r#"{"type":"unrecognised","text":"X\\y"}"#);
        let setup = [
            b"R01Tornado voor Windows 4.0        W060065BW".as_slice(),
            &[b'e'; 50],
        ]
        .concat();
        assert!(json(&setup).ends_with(r#""position":{"side_to_move":"W","board":"eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"}}"#));
    }
}
