//! A match: several games on one connection, as the initiator proposes
//! them ([`spec::damexchange`](crate::spec::damexchange), *GAMEACC*: after
//! `2` the initiator may propose another game, after `1` or `3` it stops;
//! *GAMEEND*: a new GAMEREQ may follow the GAMEEND exchange).

use super::{CommandError, Event, GameEnded, GameOffer, Initiator, Outcome, Timestamp};
use crate::message::AcceptanceCode;

/// What a [`Match`] plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MatchPlan {
    /// Games to complete (a GAMEEND exchange each; refusals do not count).
    pub games: u32,
    /// The first GAMEREQ.
    pub offer: GameOffer,
    /// Our colour changes after every GAMEREQ (refused ones too), so that
    /// each side plays both colours and, from the standard start, moves
    /// first in turn (default `true`).
    pub alternate_colors: bool,
    /// GAMEACC `2` refusals in a row after which the match stops (default
    /// 3).
    pub max_refusals: u32,
}

impl MatchPlan {
    /// `games` games from `offer`, colours alternating, 3 refusals in a
    /// row stopping it.
    pub fn new(games: u32, offer: GameOffer) -> MatchPlan {
        MatchPlan {
            games,
            offer,
            alternate_colors: true,
            max_refusals: 3,
        }
    }
}

/// The games of a match, from our side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Won.
    pub won: u32,
    /// Lost.
    pub lost: u32,
    /// Drawn.
    pub drawn: u32,
    /// Ended without result (GAMEEND reason `0`).
    pub no_result: u32,
}

/// Why a match stopped before all its games were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatchStop {
    /// The follower refused with GAMEACC `1` or `3`: no further games.
    Refused(AcceptanceCode),
    /// This many GAMEACC `2` in a row ([`MatchPlan::max_refusals`]).
    TooManyRefusals(u32),
    /// The next GAMEREQ could not be sent.
    Request(CommandError),
    /// The stream closed during this game (1-based); it does not count.
    ClosedDuringGame(u32),
    /// The application stopped it ([`Match::stop`]).
    ByApplication,
}

impl core::fmt::Display for MatchStop {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MatchStop::Refused(code) => write!(f, "the follower refused: no game: {code}"),
            MatchStop::TooManyRefusals(n) => {
                write!(f, "the follower refused {n} games in a row (GAMEACC 2)")
            }
            MatchStop::Request(e) => write!(f, "GAMEREQ: {e}"),
            MatchStop::ClosedDuringGame(n) => {
                write!(f, "the follower closed the connection during game {n}")
            }
            MatchStop::ByApplication => f.write_str("stopped by us"),
        }
    }
}

/// What to do after a [`Match`] saw an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchStep {
    /// Go on (a game is played or requested).
    Continue,
    /// The match is over: all games played ([`Match::stopped`] is `None`)
    /// or stopped; nothing more is requested, close the connection.
    Over,
}

/// The initiator's policy for several games on one connection: the first
/// GAMEREQ, the next one after each game's end or a GAMEACC `2` (our
/// colour alternating), a stop after GAMEACC `1`/`3`, too many refusals,
/// or the stream closing during a game; the score.
///
/// Give it the initiator and every event ([`Match::handle_event`]); it
/// sends the GAMEREQs. Moves stay the application's.
///
/// ```
/// use core::time::Duration;
/// use board_core::draughts::Color;
/// use damexchange::session::{
///     Event, Follower, FollowerConfig, GameOffer, Initiator, InitiatorConfig, Match, MatchPlan,
///     MatchStep,
/// };
/// use damexchange::{GameEndReason, Name};
///
/// let now = Duration::ZERO;
/// let mut i = Initiator::new(InitiatorConfig::new(Name::new("I").unwrap()), now);
/// let mut f = Follower::new(FollowerConfig::new(Name::new("F").unwrap()), now);
/// let offer = GameOffer { our_color: Color::White, minutes: 1, moves: 0, start: None };
/// let mut m = Match::new(MatchPlan::new(2, offer));
/// m.start(&mut i, now);
/// let mut colours = Vec::new();
/// loop {
///     while let Some(t) = i.poll_transmit() {
///         f.handle_input(t.as_bytes(), now);
///     }
///     while let Some(t) = f.poll_transmit() {
///         i.handle_input(t.as_bytes(), now);
///     }
///     while f.poll_event().is_some() {}
///     while let Some(e) = i.poll_event() {
///         if let Event::GameStarted(g) = &e {
///             colours.push(g.our_color);
///             i.end_game(GameEndReason::Draw, now).unwrap(); // a short game
///         }
///         if m.handle_event(&mut i, &e, now) == MatchStep::Over {
///             assert_eq!((m.games_done(), m.score().drawn), (2, 2));
///             assert_eq!(colours, [Color::White, Color::Black]);
///             return;
///         }
///     }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Match {
    plan: MatchPlan,
    offer: GameOffer,
    games_done: u32,
    refusals: u32,
    score: Score,
    last: Option<GameEnded>,
    stopped: Option<MatchStop>,
    stop_requested: bool,
}

impl Match {
    /// A match not started yet.
    pub fn new(plan: MatchPlan) -> Match {
        Match {
            offer: plan.offer,
            plan,
            games_done: 0,
            refusals: 0,
            score: Score::default(),
            last: None,
            stopped: None,
            stop_requested: false,
        }
    }

    /// Sends the first GAMEREQ.
    pub fn start<T: Timestamp>(&mut self, i: &mut Initiator<T>, now: T) -> MatchStep {
        if self.plan.games == 0 {
            return MatchStep::Over;
        }
        self.request(i, now)
    }

    /// The game in progress (or requested) is the last: the match is over
    /// when it ends ([`MatchStop::ByApplication`] if games were left).
    pub fn stop(&mut self) {
        self.stop_requested = true;
    }

    /// Follows the match with one event of the initiator: counts a game
    /// that ended, and sends the next GAMEREQ when one is due.
    pub fn handle_event<T: Timestamp>(
        &mut self,
        i: &mut Initiator<T>,
        e: &Event,
        now: T,
    ) -> MatchStep {
        if self.is_over() {
            return MatchStep::Over;
        }
        match e {
            Event::GameStarted(_) => {
                self.refusals = 0;
                MatchStep::Continue
            }
            Event::GameRefused { code } if *code != AcceptanceCode::NotThisGame => {
                self.stop_for(MatchStop::Refused(*code))
            }
            Event::GameRefused { .. } => {
                self.refusals += 1;
                if self.refusals >= self.plan.max_refusals {
                    return self.stop_for(MatchStop::TooManyRefusals(self.refusals));
                }
                self.next(i, now)
            }
            Event::GameEnded(g) if g.closed => {
                self.last = Some(g.clone());
                self.stop_for(MatchStop::ClosedDuringGame(self.game_number()))
            }
            Event::GameEnded(g) => {
                match g.outcome {
                    Outcome::Won => self.score.won += 1,
                    Outcome::Lost => self.score.lost += 1,
                    Outcome::Drawn => self.score.drawn += 1,
                    Outcome::Unknown => self.score.no_result += 1,
                }
                self.last = Some(g.clone());
                self.games_done += 1;
                if self.games_done >= self.plan.games {
                    return MatchStep::Over;
                }
                self.next(i, now)
            }
            _ => MatchStep::Continue,
        }
    }

    /// The next GAMEREQ, our colour changed (or the stop asked for).
    fn next<T: Timestamp>(&mut self, i: &mut Initiator<T>, now: T) -> MatchStep {
        if self.stop_requested {
            return self.stop_for(MatchStop::ByApplication);
        }
        if self.plan.alternate_colors {
            self.offer.our_color = self.offer.our_color.opposite();
        }
        self.request(i, now)
    }

    fn request<T: Timestamp>(&mut self, i: &mut Initiator<T>, now: T) -> MatchStep {
        match i.request_game(self.offer, now) {
            Ok(()) => MatchStep::Continue,
            Err(e) => self.stop_for(MatchStop::Request(e)),
        }
    }

    fn stop_for(&mut self, why: MatchStop) -> MatchStep {
        self.stopped.get_or_insert(why);
        MatchStep::Over
    }

    /// Games completed (GAMEEND exchanges).
    pub fn games_done(&self) -> u32 {
        self.games_done
    }

    /// The number (1-based) of the game in progress or requested.
    pub fn game_number(&self) -> u32 {
        self.games_done + 1
    }

    /// The score so far.
    pub fn score(&self) -> Score {
        self.score
    }

    /// The last game that ended (a GAMEEND exchange, or the stream closing
    /// during it).
    pub fn last(&self) -> Option<&GameEnded> {
        self.last.as_ref()
    }

    /// Why the match stopped before its games were played.
    pub fn stopped(&self) -> Option<&MatchStop> {
        self.stopped.as_ref()
    }

    /// All games played, or stopped.
    pub fn is_over(&self) -> bool {
        self.stopped.is_some() || self.games_done >= self.plan.games
    }

    /// The offer of the next (or current) GAMEREQ.
    pub fn offer(&self) -> &GameOffer {
        &self.offer
    }
}
