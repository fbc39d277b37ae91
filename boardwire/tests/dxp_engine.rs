//! `dxp connect|serve --engine`: the options and an engine that cannot
//! start (the bridge itself is tested with the test engine in
//! boardwire-engines and by the CI check 77-hub-dxp-bridge).

mod common;

use common::{assert_contains, assert_starts, boardwire, words};

#[test]
fn an_engine_that_cannot_start_is_exit_1_before_connecting() {
    // Nothing listens on this address: the engine is started first, so its
    // failure is what is reported.
    let o = boardwire(&words(
        "dxp connect 127.0.0.1:9 --engine /nonexistent/hub-engine",
    ));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_starts(
        &err,
        "error: engine: cannot start the engine /nonexistent/hub-engine",
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn engine_options_need_an_engine() {
    for args in [
        &["dxp", "connect", "127.0.0.1:9", "--option", "threads=1"][..],
        &["dxp", "serve", "--engine-arg", "hub"][..],
        &[
            "dxp",
            "connect",
            "127.0.0.1:9",
            "--engine",
            "x",
            "--option",
            "noequals",
        ][..],
    ] {
        let o = boardwire(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

/// The commands that take an engine, as their help is asked for.
const ENGINE_COMMANDS: [&[&str]; 4] = [
    &["dxp", "serve"],
    &["dxp", "connect"],
    &["csa", "connect"],
    &["citrine"],
];

/// The help of `--NAME` in `help` (from its line to the blank line after
/// it).
fn option_help<'a>(help: &'a str, name: &str) -> &'a str {
    let start = help
        .find(&format!("      --{name} <"))
        .unwrap_or_else(|| panic!("--{name} missing:\n{help}"));
    let rest = &help[start + 8..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

/// The four engine options are declared once: every command lists them,
/// with the same value names and the same help, but for `--engine`, which
/// names the protocol of that command's engine (Hub for DXP, USI for CSA,
/// UCI for the Citrine).
#[test]
fn the_engine_options_are_in_the_help() {
    let mut first: Option<Vec<String>> = None;
    for cmd in ENGINE_COMMANDS {
        let o = boardwire(&[cmd, &["--help"]].concat());
        let help = String::from_utf8_lossy(&o.stdout);
        for opt in [
            "--engine <PROGRAM>",
            "--engine-arg <ARG>",
            "--option <NAME=VALUE>",
            "--engine-timeout <SECONDS>",
        ] {
            assert!(help.contains(opt), "{cmd:?}: {opt}");
        }
        let texts: Vec<String> = ["engine", "engine-arg", "option", "engine-timeout"]
            .iter()
            .map(|n| option_help(&help, n).to_owned())
            .collect();
        assert!(texts[3].contains("1..=3600") && texts[3].contains("[default: 60]"));
        let protocol = match cmd[0] {
            "dxp" => "A Hub engine",
            "csa" => "A USI engine",
            _ => "A UCI engine",
        };
        assert!(texts[0].contains(protocol), "{cmd:?}: {}", texts[0]);
        match &first {
            None => first = Some(texts[1..].to_vec()),
            Some(f) => assert_eq!(f[..], texts[1..], "{cmd:?}"),
        }
    }
}

/// `--engine-timeout` takes 1..=3600 seconds in every command (0 would
/// give up at once).
#[test]
fn the_engine_timeout_is_checked() {
    for cmd in ENGINE_COMMANDS {
        for bad in ["0", "3601", "1.5"] {
            let o = boardwire(&[cmd, &["--engine", "x", "--engine-timeout", bad]].concat());
            assert_eq!(o.status.code(), Some(2), "{cmd:?} {bad}");
            let err = String::from_utf8_lossy(&o.stderr);
            assert_contains(&err, "--engine-timeout");
        }
    }
}
