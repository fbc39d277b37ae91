//! The vocabulary shared by KIF and KI2 ([`spec::shogi_records`](crate::spec::shogi_records) §0,
//! §1.4): piece names, square digits, kanji numbers, the named handicaps.

use board_core::shogi::{Color, PieceKind, Position, Setup, Square};

/// Full-width digits `１`..`９` (files in move text).
pub(crate) const FW_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji numerals `一`..`九` (ranks in move text and board rows).
pub(crate) const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// 1..=9 for a full-width or ASCII digit.
pub(crate) fn file_digit(c: char) -> Option<u8> {
    if let Some(i) = FW_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// 1..=9 for a kanji numeral (also full-width and ASCII digits, which KfW
/// and ShogiGUI accept in KI2: `７６`, `76`, §2).
pub(crate) fn rank_digit(c: char) -> Option<u8> {
    if let Some(i) = KANJI_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8 + 1);
    }
    file_digit(c)
}

/// The move-text name of a kind as writers write it (§0): `玉`, `飛`,
/// `龍`, `成銀`...
pub(crate) fn move_name(kind: PieceKind) -> &'static str {
    use PieceKind::*;
    match kind {
        King => "玉",
        Rook => "飛",
        Dragon => "龍",
        Bishop => "角",
        Horse => "馬",
        Gold => "金",
        Silver => "銀",
        ProSilver => "成銀",
        Knight => "桂",
        ProKnight => "成桂",
        Lance => "香",
        ProLance => "成香",
        Pawn => "歩",
        ProPawn => "と",
    }
}

/// The one-character name used in board diagrams and hands (§0, §1.5).
pub(crate) fn board_char(kind: PieceKind) -> char {
    use PieceKind::*;
    match kind {
        King => '玉',
        Rook => '飛',
        Dragon => '龍',
        Bishop => '角',
        Horse => '馬',
        Gold => '金',
        Silver => '銀',
        ProSilver => '全',
        Knight => '桂',
        ProKnight => '圭',
        Lance => '香',
        ProLance => '杏',
        Pawn => '歩',
        ProPawn => 'と',
    }
}

/// A one-character piece name (`王`, `竜`, `全`, `圭`, `杏` read too).
pub(crate) fn piece_from_char(c: char) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match c {
        '玉' | '王' => King,
        '飛' => Rook,
        '龍' | '竜' => Dragon,
        '角' => Bishop,
        '馬' => Horse,
        '金' => Gold,
        '銀' => Silver,
        '全' => ProSilver,
        '桂' => Knight,
        '圭' => ProKnight,
        '香' => Lance,
        '杏' => ProLance,
        '歩' => Pawn,
        'と' => ProPawn,
        _ => return None,
    })
}

/// A piece name at the start of `s` (`成銀` before `成`), with its length
/// in bytes.
pub(crate) fn piece_prefix(s: &str) -> Option<(PieceKind, usize)> {
    for (name, kind) in [
        ("成銀", PieceKind::ProSilver),
        ("成桂", PieceKind::ProKnight),
        ("成香", PieceKind::ProLance),
    ] {
        if s.starts_with(name) {
            return Some((kind, name.len()));
        }
    }
    let c = s.chars().next()?;
    piece_from_char(c).map(|k| (k, c.len_utf8()))
}

/// The kanji count of a hand item (`二`..`十八`); 1 is written as nothing.
pub(crate) fn kanji_count(n: u8, out: &mut alloc::string::String) {
    if n >= 10 {
        out.push('十');
    }
    let d = n % 10;
    if d >= 1 && n != 1 {
        out.push(KANJI_DIGITS[d as usize - 1]);
    }
}

/// Reads a kanji count (`二`, `十`, `十七`) at the start of `s`: the
/// value and bytes used; `None` when no numeral is there.
pub(crate) fn parse_kanji_count(s: &str) -> Option<(u8, usize)> {
    let mut chars = s.char_indices().peekable();
    let mut value = 0u8;
    let mut used = 0;
    if let Some(&(_, '十')) = chars.peek() {
        value = 10;
        used = '十'.len_utf8();
        chars.next();
    }
    if let Some(&(i, c)) = chars.peek()
        && let Some(pos) = KANJI_DIGITS.iter().position(|&d| d == c)
    {
        value += pos as u8 + 1;
        used = i + c.len_utf8();
    }
    if used == 0 { None } else { Some((value, used)) }
}

/// The named handicaps of KIF's `手合割：` (§1.4), each a set-up board-core
/// can build: White (上手) gives the pieces and moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Handicap {
    /// 平手: the even game, Black moves first.
    Even,
    /// 香落ち: White's 1-file lance (`11KY`) removed.
    Lance,
    /// 右香落ち: White's 9-file lance (`91KY`).
    RightLance,
    /// 角落ち: `22KA`.
    Bishop,
    /// 飛車落ち: `82HI`.
    Rook,
    /// 飛香落ち: `82HI 11KY`.
    RookLance,
    /// 二枚落ち: `82HI 22KA`.
    TwoPieces,
    /// 三枚落ち: `82HI 22KA 11KY` — the lance is unconfirmed (§1.4):
    /// json-kifu-format removes `91KY`, python-shogi and cshogi `11KY`; we
    /// follow the two peers, which also match 香落ち's lance (`11KY`).
    ThreePieces,
    /// 四枚落ち: `82HI 22KA 11KY 91KY`.
    FourPieces,
    /// 五枚落ち: four pieces and `81KE`.
    FivePieces,
    /// 左五枚落ち: four pieces and `21KE`.
    LeftFivePieces,
    /// 六枚落ち: four pieces and both knights.
    SixPieces,
    /// 左七枚落ち: six pieces and `31GI`.
    LeftSevenPieces,
    /// 右七枚落ち: six pieces and `71GI`.
    RightSevenPieces,
    /// 八枚落ち: six pieces and both silvers.
    EightPieces,
    /// 十枚落ち: eight pieces and both golds.
    TenPieces,
}

impl Handicap {
    /// Every named handicap, in the spec's order.
    pub const ALL: [Handicap; 16] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    /// The name as KIF writes it (`平手`, `香落ち`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Handicap::Even => "平手",
            Handicap::Lance => "香落ち",
            Handicap::RightLance => "右香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPieces => "二枚落ち",
            Handicap::ThreePieces => "三枚落ち",
            Handicap::FourPieces => "四枚落ち",
            Handicap::FivePieces => "五枚落ち",
            Handicap::LeftFivePieces => "左五枚落ち",
            Handicap::SixPieces => "六枚落ち",
            Handicap::LeftSevenPieces => "左七枚落ち",
            Handicap::RightSevenPieces => "右七枚落ち",
            Handicap::EightPieces => "八枚落ち",
            Handicap::TenPieces => "十枚落ち",
        }
    }

    /// The handicap with this name (trailing spaces already trimmed).
    pub fn from_name(name: &str) -> Option<Handicap> {
        Handicap::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The squares (file, rank) of the White pieces removed.
    fn removed(self) -> &'static [(u8, u8)] {
        const FOUR: [(u8, u8); 4] = [(8, 2), (2, 2), (1, 1), (9, 1)];
        match self {
            Handicap::Even => &[],
            Handicap::Lance => &[(1, 1)],
            Handicap::RightLance => &[(9, 1)],
            Handicap::Bishop => &[(2, 2)],
            Handicap::Rook => &[(8, 2)],
            Handicap::RookLance => &[(8, 2), (1, 1)],
            Handicap::TwoPieces => &[(8, 2), (2, 2)],
            Handicap::ThreePieces => &[(8, 2), (2, 2), (1, 1)],
            Handicap::FourPieces => &FOUR,
            Handicap::FivePieces => &[(8, 2), (2, 2), (1, 1), (9, 1), (8, 1)],
            Handicap::LeftFivePieces => &[(8, 2), (2, 2), (1, 1), (9, 1), (2, 1)],
            Handicap::SixPieces => &[(8, 2), (2, 2), (1, 1), (9, 1), (2, 1), (8, 1)],
            Handicap::LeftSevenPieces => &[(8, 2), (2, 2), (1, 1), (9, 1), (2, 1), (8, 1), (3, 1)],
            Handicap::RightSevenPieces => &[(8, 2), (2, 2), (1, 1), (9, 1), (2, 1), (8, 1), (7, 1)],
            Handicap::EightPieces => &[
                (8, 2),
                (2, 2),
                (1, 1),
                (9, 1),
                (2, 1),
                (8, 1),
                (3, 1),
                (7, 1),
            ],
            Handicap::TenPieces => &[
                (8, 2),
                (2, 2),
                (1, 1),
                (9, 1),
                (2, 1),
                (8, 1),
                (3, 1),
                (7, 1),
                (4, 1),
                (6, 1),
            ],
        }
    }

    /// The start position: the even set-up with White's pieces removed,
    /// White to move (Black for [`Handicap::Even`]).
    pub fn position(self) -> Position {
        let mut setup = Setup::startpos();
        for &(file, rank) in self.removed() {
            if let Some(sq) = Square::new(file, rank) {
                setup.board[sq.index()] = None;
            }
        }
        if self != Handicap::Even {
            setup.side_to_move = Color::White;
        }
        // Removing pieces of the side to move from a legal start leaves a
        // legal position (no check, no dead piece, no nifu).
        Position::from_setup(&setup).unwrap_or_else(|_| Position::startpos())
    }

    /// The handicap whose start position is `position` (board, hands and
    /// side to move), if any.
    pub fn of_position(position: &Position) -> Option<Handicap> {
        Handicap::ALL
            .into_iter()
            .find(|h| h.position().same_position(position))
    }
}

/// The name of a side as KIF writes it: 先手/後手, or 下手/上手 in a
/// handicap game.
pub(crate) fn side_name(color: Color, handicap_names: bool) -> &'static str {
    match (color, handicap_names) {
        (Color::Black, false) => "先手",
        (Color::White, false) => "後手",
        (Color::Black, true) => "下手",
        (Color::White, true) => "上手",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_counts_round_trip() {
        for n in 1..=18u8 {
            let mut s = alloc::string::String::new();
            kanji_count(n, &mut s);
            if n == 1 {
                assert!(s.is_empty());
            } else {
                assert_eq!(parse_kanji_count(&s), Some((n, s.len())), "{n}");
            }
        }
        assert_eq!(parse_kanji_count("十七　"), Some((17, 6)));
    }

    #[test]
    fn handicap_positions_from_the_csa_pi_lines() {
        // §3.4: the PI lines tsshogi writes for each handicap.
        let cases = [
            (Handicap::Lance, "PI11KY"),
            (Handicap::TwoPieces, "PI82HI22KA"),
            (Handicap::SixPieces, "PI82HI22KA21KE81KE11KY91KY"),
            (
                Handicap::TenPieces,
                "PI82HI22KA41KI61KI31GI71GI21KE81KE11KY91KY",
            ),
        ];
        for (h, pi) in cases {
            let text = alloc::format!("{pi}\n-\n");
            let p = Position::from_csa(text.as_bytes()).unwrap();
            assert!(h.position().same_position(&p), "{h:?}");
            assert_eq!(Handicap::of_position(&p), Some(h));
        }
    }
}
