//! [`Event::describe`] and [`Event::is_disagreement`]: the host driver's
//! events as a person at the host reads them (what `boardwire citrine`
//! and its demo print), beside the terse `Display`.

use core::fmt;

use crate::session::Event;
use crate::types::LevelKind;

impl Event {
    /// The event for a person at the host: its `Display` (`ack e2e4`,
    /// `duplicate e2e4`, `takeback e7e5`, ...), with what the driver does
    /// about it where that matters (`out-of-turn e2e4 (taking it back)`,
    /// `new game (settings re-sent)`, `disagreement: ... (resynchronising
    /// with P)`) and levels spelled out (`level citrine 5 (sd 5)`).
    ///
    /// ```
    /// use novag_citrine::session::Event;
    /// use novag_citrine::types::{Level, LevelKind};
    ///
    /// let sd5 = Event::Level(Level::new(LevelKind::Citrine, 5)?);
    /// assert_eq!(sd5.describe().to_string(), "level citrine 5 (sd 5)");
    /// assert!(!sd5.is_disagreement());
    /// # Ok::<(), novag_citrine::ValueError>(())
    /// ```
    pub fn describe(&self) -> impl fmt::Display + '_ {
        Describe(self)
    }

    /// The driver and the device disagree: [`Event::Disagreement`] (the
    /// driver resynchronises through `P`) or [`Event::OutOfSync`] (it
    /// could not).
    pub fn is_disagreement(&self) -> bool {
        matches!(self, Event::Disagreement(_) | Event::OutOfSync { .. })
    }
}

struct Describe<'e>(&'e Event);

impl fmt::Display for Describe<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Event::OutOfTurn(m) => write!(f, "out-of-turn {m} (taking it back)"),
            Event::GameStarted(_) => f.write_str("new game (settings re-sent)"),
            Event::Disagreement(d) => write!(f, "disagreement: {d} (resynchronising with P)"),
            Event::Level(l) => {
                let kind = match l.kind() {
                    LevelKind::Tournament => "tournament",
                    LevelKind::Citrine => "citrine",
                    LevelKind::AverageTime => "average time",
                    LevelKind::Beginner => "beginner",
                };
                let (name, n) = (l.kind().reply_name(), l.number());
                write!(f, "level {kind} {n} ({name} {n})")
            }
            ev => fmt::Display::fmt(ev, f),
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    use crate::session::{Disagreement, Event, GameStarted};
    use crate::types::{Level, LevelKind};
    use crate::vocab::Position;

    fn reading(ev: &Event) -> (alloc::string::String, bool) {
        (ev.describe().to_string(), ev.is_disagreement())
    }

    #[test]
    fn levels_in_words() {
        // Spec note spec/citrine.md, *Commands (host -> device) and
        // replies (device -> host)*: `L CITRINE 5` is answered `Level sd 5`;
        // the default is `Level tr 1` (tournament level 1).
        let sd5 = Level::new(LevelKind::Citrine, 5).unwrap();
        assert_eq!(
            reading(&Event::Level(sd5)),
            ("level citrine 5 (sd 5)".to_string(), false)
        );
        assert_eq!(
            reading(&Event::Level(Level::DEFAULT)).0,
            "level tournament 1 (tr 1)"
        );
    }

    #[test]
    fn what_the_driver_does_is_said_and_disagreements_are_marked() {
        let e2e4 = Position::startpos().parse_uci("e2e4").unwrap();
        assert_eq!(
            reading(&Event::OutOfTurn(e2e4)),
            ("out-of-turn e2e4 (taking it back)".to_string(), false)
        );
        let flipped = Event::Disagreement(Disagreement::Flipped);
        assert_eq!(
            reading(&flipped),
            (
                "disagreement: the device changed the side to move (resynchronising with P)"
                    .to_string(),
                true
            )
        );
        assert_eq!(
            reading(&Event::GameStarted(GameStarted {
                start: Position::startpos()
            })),
            ("new game (settings re-sent)".to_string(), false)
        );
        // The rest is the `Display`.
        for ev in [
            Event::Acknowledged(e2e4),
            Event::Duplicate(e2e4),
            Event::Xmit(true),
        ] {
            assert_eq!(reading(&ev), (ev.to_string(), false));
        }
    }
}
