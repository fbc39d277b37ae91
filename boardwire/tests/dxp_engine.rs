//! `dxp connect|serve --engine`: the options and an engine that cannot
//! start (the bridge itself is tested with the test engine in
//! boardwire-engines and by the CI check 77-hub-dxp-bridge).

use std::process::{Command, Output};

fn boardwire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardwire"))
        .args(args)
        .output()
        .expect("boardwire runs")
}

#[test]
fn an_engine_that_cannot_start_is_exit_1_before_connecting() {
    // Nothing listens on this address: the engine is started first, so its
    // failure is what is reported.
    let o = boardwire(&[
        "dxp",
        "connect",
        "127.0.0.1:9",
        "--engine",
        "/nonexistent/hub-engine",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with("error: engine: cannot start the engine /nonexistent/hub-engine"),
        "{err}"
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

#[test]
fn the_engine_options_are_in_the_help() {
    for sub in ["connect", "serve"] {
        let o = boardwire(&["dxp", sub, "--help"]);
        let help = String::from_utf8_lossy(&o.stdout);
        for opt in [
            "--engine <PROGRAM>",
            "--engine-arg <ARG>",
            "--option <NAME=VALUE>",
            "--engine-timeout <S>",
        ] {
            assert!(help.contains(opt), "dxp {sub}: {opt}");
        }
    }
}
