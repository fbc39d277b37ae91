//! [`server_load`](../server_load.rs) with game records on
//! (`ServerConfig::records`): `cargo test --release -p csa-protocol --test
//! server_load_records -- --ignored --nocapture`.

#[path = "server_load.rs"]
#[allow(dead_code)]
mod load;

use csa_protocol::session::{RatingIds, ServerConfig};

#[test]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
fn server_moves_per_second_with_records() {
    for round in 0..3 {
        let config = ServerConfig {
            records: true,
            rating_ids: RatingIds::Md5,
            ..Default::default()
        };
        let n = load::run(config);
        println!("round {round}: {n:.0} moves/s with records");
    }
}
