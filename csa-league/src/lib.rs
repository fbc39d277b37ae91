//! A Floodgate league for CSA shogi servers, as shogi-server runs one.
//!
//! [Floodgate](http://wdoor.c.u-tokyo.ac.jp/shogi/floodgate.html) is the
//! league where computer-shogi programs play around the clock: at the times
//! of a schedule the engines waiting for a game such as `floodgate-300-10F`
//! are paired all at once by rating, with penalties for repeating the last
//! pairing; `mk_game_results DIR | mk_rate` turns the record tree into
//! `players.yaml`, which the server reads for `%%RATING` and for pairing;
//! `mk_html` publishes the standings. This crate is that league, in library
//! code:
//!
//! - scheduling and pairing: `schedule` (shogi-server's `<game>.conf`
//!   files), `pairing` (its pairing factories), `history`
//!   (`floodgate_history_<game>.yaml`) and `floodgate` (a
//!   [`csa_protocol::session::League`] for [`csa_protocol::session::Server`]);
//! - running a server's league: [`operator`] (`players.yaml` watched and
//!   reloaded, `%%RATING`'s list, ratings recomputed from the records);
//! - ratings: `results` (`mk_game_results`: the results in a tree of CSA
//!   records), `rating` (`mk_rate`: Bradley–Terry ratings solved by Newton's
//!   method), [`players`] (`players.yaml`) and `standings` (an HTML page).
//!
//! It is a crate of its own, not a module of csa-protocol, because it needs
//! what the protocol crate must not: `std` (files, floating point), a
//! seedable random generator and YAML; a user who rates a record tree needs
//! no server, and a server without a league pulls none of it.

// Ratings (mk_game_results, mk_rate, players.yaml, the standings page).
pub mod players;

// Scheduling and pairing (schedules, pairing factories, history, the League).
pub mod floodgate;
pub mod history;
pub mod operator;
pub mod pairing;
pub mod schedule;
pub use floodgate::{Floodgate, FloodgateDir, FloodgateError};
pub mod rating;
pub mod results;
pub mod standings;
pub use players::{PlayerEntry, Players, Stamp, Zone};
pub use rating::{RateOptions, Rating, mk_rate};
pub use results::{GameResult, mk_game_results};
pub use standings::standings_html;
