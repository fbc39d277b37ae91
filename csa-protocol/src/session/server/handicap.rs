//! Handicap games chosen by game-name prefix, as shogi-server plays them
//! ([`spec::csa`](crate::spec::csa), *Extended mode (x1)*: `hc..._` prefixes).
//!
//! | prefix | pieces removed from Black (`+`) |
//! |---|---|
//! | `hclance_` | the lance on 9i (`9九`) |
//! | `hcbishop_` | the bishop |
//! | `hcrook_` | the rook |
//! | `hcrooklance_` | the rook and the lance on 9i |
//! | `hc2p_` | rook, bishop |
//! | `hc4p_` | rook, bishop, both lances |
//! | `hc6p_` | rook, bishop, lances, knights |
//! | `hc8p_` | rook, bishop, lances, knights, silvers |
//! | `hc10p_` | rook, bishop, lances, knights, silvers, golds |
//!
//! In shogi-server the handicap giver is Black (`+`): the pieces are taken
//! from the `+` side, and `+` moves first (the `hc2p_hoge` record in
//! `boardwire-vectors`; shogi-server's `HC*Board` classes). This is the
//! usual handicap position (the giver is White and moves first) turned
//! round, colours swapped.

use board_core::shogi::Position;

/// The handicap prefixes, in the table's order.
pub const PREFIXES: [&str; 9] = [
    "hclance_",
    "hcbishop_",
    "hcrook_",
    "hcrooklance_",
    "hc2p_",
    "hc4p_",
    "hc6p_",
    "hc8p_",
    "hc10p_",
];

/// Black's rows 8 and 9 (CSA cells, file 9 first) for each prefix.
const ROWS: [(&str, &str); 9] = [
    (" * +KA *  *  *  *  * +HI * ", " * +KE+GI+KI+OU+KI+GI+KE+KY"),
    (" *  *  *  *  *  *  * +HI * ", "+KY+KE+GI+KI+OU+KI+GI+KE+KY"),
    (" * +KA *  *  *  *  *  *  * ", "+KY+KE+GI+KI+OU+KI+GI+KE+KY"),
    (" * +KA *  *  *  *  *  *  * ", " * +KE+GI+KI+OU+KI+GI+KE+KY"),
    (" *  *  *  *  *  *  *  *  * ", "+KY+KE+GI+KI+OU+KI+GI+KE+KY"),
    (" *  *  *  *  *  *  *  *  * ", " * +KE+GI+KI+OU+KI+GI+KE * "),
    (" *  *  *  *  *  *  *  *  * ", " *  * +GI+KI+OU+KI+GI *  * "),
    (" *  *  *  *  *  *  *  *  * ", " *  *  * +KI+OU+KI *  *  * "),
    (" *  *  *  *  *  *  *  *  * ", " *  *  *  * +OU *  *  *  * "),
];

/// The start position of a game named `game_name`: a handicap position
/// when the name starts with one of [`PREFIXES`] (Black to move), else
/// `None` (the caller's default, the even position).
pub fn position(game_name: &str) -> Option<Position> {
    let i = PREFIXES.iter().position(|p| game_name.starts_with(p))?;
    let (p8, p9) = ROWS[i];
    let text = alloc::format!(
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n\
         P2 * -HI *  *  *  *  * -KA * \n\
         P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
         P4 *  *  *  *  *  *  *  *  * \n\
         P5 *  *  *  *  *  *  *  *  * \n\
         P6 *  *  *  *  *  *  *  *  * \n\
         P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n\
         P8{p8}\nP9{p9}\n+\n"
    );
    Position::from_csa(text.as_bytes()).ok()
}
