#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod capture;
pub mod counting;
pub mod port;

/// The recorded files, as the peers produced them (byte for byte).
pub mod data {
    /// DXP sessions recorded on loopback against Scan 3.1 (follower and
    /// initiator) and pydraughts; format: [`crate::capture`] with
    /// [`Escapes::Backslash`](crate::capture::Escapes::Backslash).
    pub const DXP_SCAN_FOLLOWER: &str = include_str!("../data/dxp-scan-follower.txt");
    /// Scripted CSA clients against shogi-server, x1 and plain CSA mode;
    /// format: [`crate::capture`] with
    /// [`Escapes::Raw`](crate::capture::Escapes::Raw).
    pub const CSA_SHOGI_SERVER: &str = include_str!("../data/csa-shogi-server-x1-and-csa-mode.txt");
    /// A Hub protocol session with Scan 3.1 (engine side of Hub v2).
    pub const HUB_SCAN31: &str = include_str!("../data/hub-scan31-session.txt");
    /// A Floodgate game record, CSA V2.2 (`floodgate-900-0`, gps_normal vs gps_l).
    pub const KIFU_FLOODGATE_GPS: &[u8] =
        include_bytes!("../data/floodgate-900-0-gps_normal-gps_l-20100507.csa");
    /// A Floodgate game record (2008) that ends in an illegal pawn-drop mate.
    pub const KIFU_UCHIFUZUME: &[u8] = include_bytes!("../data/uchifuzume-floodgate-2008.csa");
    /// Game records written by shogi-server (revision 20201206) on loopback,
    /// as `(file name, bytes)`; see `data/csa-records/README.md` for the
    /// logins that made them.
    pub const CSA_RECORDS: &[(&str, &[u8])] = &[
        record!(
            "ceotest+MaxMovesTest-1500-0+MaxMovesTest_sente+MaxMovesTest_gote+20261201083243.csa"
        ),
        record!(
            "ceotest+OuteSennichiteTest-1500-0+OuteSennichiteTest_sente+OuteSennichiteTest_gote+20261201083255.csa"
        ),
        record!("ceotest+TestComment-1500-0+TestComment_sente+TestComment_gote+20261201082708.csa"),
        record!(
            "ceotest+TestWhiteMovesBlack-1500-0+TestWhiteMovesBlack_sente+TestWhiteMovesBlack_gote+20261201082725.csa"
        ),
        record!("ceotest+atmark-1500-0+atmark_B@p1+atmark_W@p2+20261201082704.csa"),
        record!("ceotest+buoy_Fork-1500-0+buoy_Fork_p1+buoy_Fork_p2+20261201082735.csa"),
        record!("ceotest+default-1500-0+csawtrip_p2+csawtrip_p1+20261201082701.csa"),
        record!("ceotest+hc2p_hoge-1500-0+hc2p_hoge_B+hc2p_hoge_W+20261201082723.csa"),
    ];

    macro_rules! record {
        ($name:literal) => {
            (
                $name,
                include_bytes!(concat!("../data/csa-records/", $name)),
            )
        };
    }
    use record;
}
