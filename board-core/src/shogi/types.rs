//! Vocabulary types: [`Color`], [`Square`], [`PieceKind`], [`Piece`], [`Hand`], [`Move`].

use core::fmt;

/// The two sides.
///
/// Shogi's *Black* is **sente** (先手): it moves first in an even game, is
/// written `+` in CSA and `b` in SFEN, and its pieces point towards rank 1.
/// *White* is **gote** (後手), CSA `-`, SFEN `w`, pieces pointing towards
/// rank 9. (In handicap games the handicap giver is White and moves first;
/// the position text says who is to move.)
///
/// This is the shogi module's own colour type: the draughts and chess
/// modules number their sides differently (White moves first there), so a
/// shared type would invite exactly the sente/gote confusion it is meant to
/// prevent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Sente, `+` in CSA, `b` in SFEN; moves first in an even game.
    Black = 0,
    /// Gote, `-` in CSA, `w` in SFEN.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The CSA sign: `'+'` for Black, `'-'` for White.
    #[inline]
    pub const fn csa_sign(self) -> char {
        match self {
            Color::Black => '+',
            Color::White => '-',
        }
    }

    /// The SFEN side letter: `'b'` for Black, `'w'` for White.
    #[inline]
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

not_is_opposite!(Color);

impl fmt::Display for Color {
    /// `black` (sente) or `white` (gote), lower case as in the other two
    /// games.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A square of the 9x9 board: file 1..=9 (right to left as Black sees the
/// board), rank 1..=9 (top to bottom; rank 1 is White's back rank).
///
/// Written `77` in CSA (file digit, rank digit) and `7g` in USI (file digit,
/// rank letter `a`..`i`). Internally an index 0..=80: `(file - 1) * 9 +
/// (rank - 1)`, so the squares of one file are consecutive.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// Number of squares (81).
    pub const COUNT: usize = 81;

    /// The square with `file` 1..=9 and `rank` 1..=9, `None` outside.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The square with index 0..=80 (see the type docs), `None` outside.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    /// Index 0..=80.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 1..=9.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Rank 1..=9.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The USI form, e.g. `7g`, as two ASCII bytes.
    #[inline]
    pub const fn usi_bytes(self) -> [u8; 2] {
        [b'0' + self.file(), b'a' + self.rank() - 1]
    }

    /// The CSA form, e.g. `77`, as two ASCII digits.
    #[inline]
    pub const fn csa_bytes(self) -> [u8; 2] {
        [b'0' + self.file(), b'0' + self.rank()]
    }

    /// All 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// The rank counted from `color`'s own side: 1 is `color`'s far rank
    /// (the last rank it moves towards), 9 its own back rank.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Black => self.rank(),
            Color::White => 10 - self.rank(),
        }
    }
}

impl fmt::Display for Square {
    /// USI form, `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.usi_bytes();
        write!(f, "{}{}", b[0] as char, b[1] as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The fourteen kinds of shogi pieces (eight unpromoted, six promoted).
///
/// CSA codes: `FU KY KE GI KI KA HI OU TO NY NK NG UM RY`; SFEN letters
/// `P L N S G B R K`, promoted ones prefixed with `+`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    /// Pawn, 歩 (FU, `P`).
    Pawn = 0,
    /// Lance, 香 (KY, `L`).
    Lance = 1,
    /// Knight, 桂 (KE, `N`).
    Knight = 2,
    /// Silver general, 銀 (GI, `S`).
    Silver = 3,
    /// Gold general, 金 (KI, `G`).
    Gold = 4,
    /// Bishop, 角 (KA, `B`).
    Bishop = 5,
    /// Rook, 飛 (HI, `R`).
    Rook = 6,
    /// King, 玉/王 (OU, `K`).
    King = 7,
    /// Promoted pawn, と金 tokin (TO, `+P`).
    ProPawn = 8,
    /// Promoted lance, 成香 (NY, `+L`).
    ProLance = 9,
    /// Promoted knight, 成桂 (NK, `+N`).
    ProKnight = 10,
    /// Promoted silver, 成銀 (NG, `+S`).
    ProSilver = 11,
    /// Promoted bishop, 馬 horse (UM, `+B`).
    Horse = 12,
    /// Promoted rook, 龍 dragon (RY, `+R`).
    Dragon = 13,
}

impl PieceKind {
    /// All fourteen kinds in discriminant order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The seven kinds that can be held in hand, in [`Hand`] index order
    /// (pawn, lance, knight, silver, gold, bishop, rook): the first seven
    /// of [`PieceKind::ALL`].
    pub const HAND: [PieceKind; 7] = {
        let [pawn, lance, knight, silver, gold, bishop, rook, ..] = PieceKind::ALL;
        [pawn, lance, knight, silver, gold, bishop, rook]
    };

    /// The CSA two-letter codes, indexed by discriminant.
    const CSA: [&'static str; 14] = [
        "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
    ];

    /// How many pieces of this kind (together with its promoted form) a
    /// full set has: 18 pawns, 4 lances/knights/silvers/golds, 2
    /// bishops/rooks, 2 kings.
    pub const fn total_count(self) -> u8 {
        match self.unpromoted() {
            PieceKind::Pawn => 18,
            PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
            _ => 4,
        }
    }

    /// Discriminant 0..=13.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with discriminant `index`, `None` if `index > 13`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < 14 {
            Some(PieceKind::ALL[index])
        } else {
            None
        }
    }

    /// The promoted form (`Pawn` -> `ProPawn`, `Bishop` -> `Horse`, ...),
    /// `None` for gold, king and already promoted kinds.
    #[inline]
    pub const fn promoted(self) -> Option<PieceKind> {
        match self {
            PieceKind::Pawn => Some(PieceKind::ProPawn),
            PieceKind::Lance => Some(PieceKind::ProLance),
            PieceKind::Knight => Some(PieceKind::ProKnight),
            PieceKind::Silver => Some(PieceKind::ProSilver),
            PieceKind::Bishop => Some(PieceKind::Horse),
            PieceKind::Rook => Some(PieceKind::Dragon),
            _ => None,
        }
    }

    /// The unpromoted form (the kind a captured piece goes to the hand as);
    /// unpromoted kinds map to themselves.
    #[inline]
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// `true` for the six promoted kinds.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// `true` for pawn, lance, knight, silver, bishop and rook.
    #[inline]
    pub const fn can_promote(self) -> bool {
        self.promoted().is_some()
    }

    /// The index in a [`Hand`] (0..=6) of a kind that can be held in hand
    /// (unpromoted, not the king), `None` otherwise.
    #[inline]
    pub const fn hand_index(self) -> Option<usize> {
        if (self as u8) < 7 {
            Some(self as usize)
        } else {
            None
        }
    }

    /// The CSA two-letter code (`FU`, ..., `RY`).
    #[inline]
    pub const fn csa(self) -> &'static str {
        Self::CSA[self as usize]
    }

    /// The kind named by a CSA two-letter code, `None` if unknown.
    pub const fn from_csa(code: [u8; 2]) -> Option<PieceKind> {
        let mut i = 0;
        while i < 14 {
            let c = Self::CSA[i].as_bytes();
            if c[0] == code[0] && c[1] == code[1] {
                return Some(Self::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// The SFEN letter of the unpromoted form, uppercase (`P`, ..., `K`).
    #[inline]
    pub const fn sfen_letter(self) -> u8 {
        match self.unpromoted() {
            PieceKind::Pawn => b'P',
            PieceKind::Lance => b'L',
            PieceKind::Knight => b'N',
            PieceKind::Silver => b'S',
            PieceKind::Gold => b'G',
            PieceKind::Bishop => b'B',
            PieceKind::Rook => b'R',
            _ => b'K',
        }
    }

    /// The unpromoted kind named by an SFEN/USI letter (either case).
    pub const fn from_sfen_letter(c: u8) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            b'P' => Some(PieceKind::Pawn),
            b'L' => Some(PieceKind::Lance),
            b'N' => Some(PieceKind::Knight),
            b'S' => Some(PieceKind::Silver),
            b'G' => Some(PieceKind::Gold),
            b'B' => Some(PieceKind::Bishop),
            b'R' => Some(PieceKind::Rook),
            b'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// Shogi's sliding pieces: lance, bishop, rook, horse, dragon.
    #[inline]
    pub const fn is_slider(self) -> bool {
        matches!(
            self,
            PieceKind::Lance
                | PieceKind::Bishop
                | PieceKind::Rook
                | PieceKind::Horse
                | PieceKind::Dragon
        )
    }
}

impl fmt::Display for PieceKind {
    /// The CSA code (`FU`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.csa())
    }
}

/// A piece: a colour and a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The kind.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Compact code 1..=28 (0 is reserved for "empty").
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + self.kind as u8 + 14 * self.color as u8
    }

    /// Inverse of [`Piece::code`]; `None` for 0 or out of range.
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code > 28 {
            return None;
        }
        let c = code - 1;
        let color = if c >= 14 { Color::White } else { Color::Black };
        Some(Piece {
            color,
            kind: PieceKind::ALL[(c % 14) as usize],
        })
    }
}

impl fmt::Display for Piece {
    /// SFEN form: `P`, `+p`, `k`...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind.is_promoted() {
            f.write_str("+")?;
        }
        let l = self.kind.sfen_letter();
        let l = match self.color {
            Color::Black => l,
            Color::White => l.to_ascii_lowercase(),
        };
        write!(f, "{}", l as char)
    }
}

/// The pieces one side holds in hand: a count per hand kind.
///
/// Counts are bounded by the full set (pawn 0..=18, lance/knight/silver/gold
/// 0..=4, bishop/rook 0..=2); [`Hand::add`] refuses anything beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand {
    counts: [u8; 7],
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; 7] };

    /// How many pieces of `kind` are held (0 for kinds that cannot be held).
    #[inline]
    pub const fn count(&self, kind: PieceKind) -> u8 {
        match kind.hand_index() {
            Some(i) => self.counts[i],
            None => 0,
        }
    }

    /// Adds `n` pieces of `kind`. Returns `false` (hand unchanged) if `kind`
    /// cannot be held (promoted, king) or the count would exceed the full set.
    pub fn add(&mut self, kind: PieceKind, n: u8) -> bool {
        match kind.hand_index() {
            Some(i) => match self.counts[i].checked_add(n) {
                Some(c) if c <= kind.total_count() => {
                    self.counts[i] = c;
                    true
                }
                _ => false,
            },
            None => false,
        }
    }

    /// `true` if no piece is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 7]
    }

    /// The counts in hand-index order (pawn, lance, knight, silver, gold,
    /// bishop, rook).
    #[inline]
    pub const fn counts(&self) -> [u8; 7] {
        self.counts
    }

    #[inline]
    pub(crate) fn inc(&mut self, index: usize) {
        self.counts[index] += 1;
    }

    #[inline]
    pub(crate) fn dec(&mut self, index: usize) {
        self.counts[index] -= 1;
    }

    #[inline]
    pub(crate) fn raw(&self, index: usize) -> u8 {
        self.counts[index]
    }
}

/// A move: a board move (from, to, promotion flag) or a drop (piece kind,
/// to). A small `Copy` value (2 bytes) that knows nothing about a position;
/// [`Position::is_legal`](super::Position::is_legal) decides legality.
///
/// `Display` prints USI (`7g7f`, `8h2b+`, `P*5e`); see also
/// [`Move::from_usi`] and [`CsaMove`](super::CsaMove) for CSA notation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const PROMOTE_BIT: u16 = 1 << 14;

impl Move {
    /// A board move from `from` to `to`, promoting if `promote`.
    #[inline]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.0 as u16 | (from.0 as u16) << 7 | if promote { PROMOTE_BIT } else { 0 })
    }

    /// A drop of `kind` on `to`; `None` if `kind` cannot be held in hand.
    #[inline]
    pub const fn drop(kind: PieceKind, to: Square) -> Option<Move> {
        match kind.hand_index() {
            Some(i) => Some(Move::drop_index(i, to)),
            None => None,
        }
    }

    #[inline]
    pub(crate) const fn drop_index(hand_index: usize, to: Square) -> Move {
        Move(to.0 as u16 | (81 + hand_index as u16) << 7)
    }

    #[inline]
    pub(crate) const fn raw_from(self) -> usize {
        ((self.0 >> 7) & 0x7f) as usize
    }

    /// The destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// The origin square, `None` for a drop.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        let f = self.raw_from();
        if f < 81 { Some(Square(f as u8)) } else { None }
    }

    /// The dropped kind, `None` for a board move.
    #[inline]
    pub const fn drop_kind(self) -> Option<PieceKind> {
        let f = self.raw_from();
        if f >= 81 {
            Some(PieceKind::HAND[f - 81])
        } else {
            None
        }
    }

    /// `true` for a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.raw_from() >= 81
    }

    /// `true` for a promoting board move.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE_BIT != 0
    }

    /// The USI text (`7g7f`, `8h2b+`, `P*5e`): up to 5 ASCII bytes and the
    /// length used.
    pub const fn usi_bytes(self) -> ([u8; 5], usize) {
        let mut out = [0u8; 5];
        let to = self.to().usi_bytes();
        match self.from() {
            Some(from) => {
                let f = from.usi_bytes();
                out[0] = f[0];
                out[1] = f[1];
                out[2] = to[0];
                out[3] = to[1];
                if self.is_promotion() {
                    out[4] = b'+';
                    (out, 5)
                } else {
                    (out, 4)
                }
            }
            None => {
                let k = match self.drop_kind() {
                    Some(k) => k,
                    None => PieceKind::Pawn,
                };
                out[0] = k.sfen_letter();
                out[1] = b'*';
                out[2] = to[0];
                out[3] = to[1];
                (out, 4)
            }
        }
    }
}

impl fmt::Display for Move {
    /// USI notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (b, n) = self.usi_bytes();
        // The bytes are ASCII by construction.
        f.write_str(core::str::from_utf8(&b[..n]).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}
