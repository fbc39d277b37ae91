//! `players.yaml`: the ratings mk_rate writes and shogi-server reads (for
//! `%%RATING` and for pairing).

/// A local time as Ruby's YAML writes a `Time`
/// (`2024-05-01 12:34:56.000000000 +09:00`): the instant and the UTC offset
/// it was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Stamp {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    pub unix_secs: i64,
    /// Nanoseconds within the second (0..=999_999_999).
    pub nanos: u32,
    /// The offset it was written in, seconds east of UTC.
    pub utc_offset_secs: i32,
}

/// One player of `players.yaml`: mk_rate's entry, keyed by the player id.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerEntry {
    /// The player id, the key of the entry: shogi-server's
    /// `<name>+<MD5 of the password>`, or a name alone.
    pub player_id: String,
    /// The name (`name`): the id up to its first `+`.
    pub name: String,
    /// The rating group (`rating_group`): 0 for the largest connected group
    /// of players, 1 for the next, ...; 999 for players not rated.
    pub rating_group: u32,
    /// The rate (`rate`), an integer; 0 for players not rated.
    pub rate: i64,
    /// When the player last played (`last_modified`), if known.
    pub last_modified: Option<Stamp>,
    /// Wins (`win`), weighted by age (half-life), draws as one half.
    pub win: f64,
    /// Losses (`loss`), weighted as the wins.
    pub loss: f64,
}

/// The players of a `players.yaml`, in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Players {
    /// The entries, group by group.
    pub entries: Vec<PlayerEntry>,
}

impl Players {
    /// The entry of `player_id`, if any.
    pub fn get(&self, player_id: &str) -> Option<&PlayerEntry> {
        self.entries.iter().find(|e| e.player_id == player_id)
    }
}
