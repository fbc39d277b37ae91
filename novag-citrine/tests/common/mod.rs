//! Test fixtures shared by the integration tests (`mod common;`).

/// A game list captured from a real Citrine (the user log the spec note
/// spec/citrine.md cites for `. 3 f4xe5 d8-h4` in *Commands (host ->
/// device) and replies (device -> host)*, command `G`), columns as
/// printed: the header, the column titles, then one row per move pair.
pub const CAPTURED_GAME_LIST: [&str; 8] = [
    "Game   6",
    ".      white       black",
    ".   1  e2-e4       e7-e5",
    ".   2  f2-f4       f8-c5",
    ".   3  f4xe5       d8-h4",
    ".   4  e1-e2       h4-f2",
    ".   5  e2-d3       f2-d4",
    ".   6  d3-e2       d4xe4",
];
