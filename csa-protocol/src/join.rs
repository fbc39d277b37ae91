//! [`client_config`]: the [`ClientConfig`] that asks a server for a game
//! by its name, in either mode ([`spec::csa`](crate::spec::csa), *Plain
//! CSA mode* and *Extended mode (x1)*).
//!
//! Plain CSA mode has no command to ask for a game: shogi-server reads the
//! `LOGIN` password as `<game>`, `<game>-B|-W` (the side asked for) or
//! `<game>,<secret>` (Floodgate's convention; anything else means
//! `default-1500-0`). x1 mode sends the password as it is and asks with
//! `%%GAME <game> <side>` right after login. Floodgate games
//! ([`is_floodgate_game`]) take no side: the server assigns it, and
//! shogi-server refuses a side there.

use alloc::string::String;

use crate::error::ValueError;
use crate::session::ClientConfig;
use crate::types::{GameName, Password, SidePreference, UserName, is_floodgate_game};

/// The password of x1 mode when none is given.
pub const X1_DEFAULT_PASSWORD: &str = "nopassword";

/// Why [`client_config`] could not make a configuration: the value named
/// is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JoinError {
    /// The login name.
    #[error("{0}")]
    Name(ValueError),
    /// The game name.
    #[error("{0}")]
    Game(ValueError),
    /// A side asked for in a Floodgate game.
    #[error("a Floodgate game ({0}) takes no side: the server assigns it")]
    FloodgateSide(String),
    /// The password (in plain mode, the password made from the game name).
    #[error("{0}")]
    Password(ValueError),
}

/// The client settings for logging in as `name` and asking for `game`
/// (with `side`): in plain mode (`x1` false) the password is
/// `<game>[-B|-W][,<password>]`, in x1 mode `password` as it is (or
/// [`X1_DEFAULT_PASSWORD`]) and [`ClientConfig::game`] is set. The other
/// settings are [`ClientConfig::new`]'s.
///
/// ```
/// use csa_protocol::join::client_config;
/// use csa_protocol::types::SidePreference;
///
/// let c = client_config("alice", Some("pw"), false, "g-300-10", SidePreference::Black).unwrap();
/// assert_eq!(c.password.expose(), "g-300-10-B,pw");
/// let c = client_config("bob", None, true, "g-300-10", SidePreference::White).unwrap();
/// assert_eq!(c.password.expose(), "nopassword");
/// assert_eq!(c.game.unwrap().1, SidePreference::White);
/// assert!(client_config("bob", None, true, "floodgate-300-10F", SidePreference::White).is_err());
/// ```
///
/// # Errors
/// [`JoinError`], checked in this order: the name, the game, the side, the
/// password.
pub fn client_config(
    name: &str,
    password: Option<&str>,
    x1: bool,
    game: &str,
    side: SidePreference,
) -> Result<ClientConfig, JoinError> {
    let name = UserName::new(String::from(name)).map_err(JoinError::Name)?;
    let game_name = GameName::new(String::from(game)).map_err(JoinError::Game)?;
    if side != SidePreference::Any && is_floodgate_game(game) {
        return Err(JoinError::FloodgateSide(String::from(game)));
    }
    let plain_side = match side {
        SidePreference::Black => "-B",
        SidePreference::White => "-W",
        SidePreference::Any => "",
    };
    let password = match (x1, password) {
        (false, Some(p)) => alloc::format!("{game}{plain_side},{p}"),
        (false, None) => alloc::format!("{game}{plain_side}"),
        (true, p) => String::from(p.unwrap_or(X1_DEFAULT_PASSWORD)),
    };
    let password = Password::new(password).map_err(JoinError::Password)?;
    let mut config = ClientConfig::new(name, password);
    config.x1 = x1;
    if x1 {
        config.game = Some((game_name, side));
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn plain_mode_puts_the_game_in_the_password() {
        let pw = |password, side| {
            let c = client_config("a", password, false, "g-60-5", side).unwrap();
            assert_eq!(c.game, None);
            assert!(!c.x1);
            String::from(c.password.expose())
        };
        assert_eq!(pw(None, SidePreference::Any), "g-60-5");
        assert_eq!(pw(None, SidePreference::White), "g-60-5-W");
        assert_eq!(pw(Some("s3cret"), SidePreference::Any), "g-60-5,s3cret");
        assert_eq!(pw(Some("s"), SidePreference::Black), "g-60-5-B,s");
    }

    #[test]
    fn x1_mode_asks_with_game() {
        let c = client_config("a", Some("pw"), true, "g-60-5", SidePreference::Black).unwrap();
        assert!(c.x1);
        assert_eq!(c.password.expose(), "pw");
        let (game, side) = c.game.unwrap();
        assert_eq!((game.as_str(), side), ("g-60-5", SidePreference::Black));
    }

    #[test]
    fn bad_values_are_named() {
        let any = SidePreference::Any;
        assert!(matches!(
            client_config("a b", None, false, "g", any),
            Err(JoinError::Name(_))
        ));
        assert!(matches!(
            client_config("a", None, false, "g 1", any),
            Err(JoinError::Game(_))
        ));
        assert!(matches!(
            client_config("a", Some("p w"), false, "g", any),
            Err(JoinError::Password(_))
        ));
        for x1 in [false, true] {
            assert_eq!(
                client_config("a", None, x1, "floodgate-900-0", SidePreference::Black)
                    .unwrap_err()
                    .to_string(),
                "a Floodgate game (floodgate-900-0) takes no side: the server assigns it"
            );
            // Not a Floodgate name: a side is fine.
            assert!(
                client_config("a", None, x1, "floodgate-600-10-x", SidePreference::Black).is_ok()
            );
        }
    }
}
