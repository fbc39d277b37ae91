//! `spec/damexchange.md` is a copy: the note belongs to the damexchange
//! crate (`damexchange/spec/damexchange.md` in the workspace), and
//! board-core ships it too because its draughts docs cite the note's *Board
//! conventions users expect* and board-core cannot link to a crate that
//! depends on it. The copy must stay byte-identical to the original.

use std::path::Path;

#[test]
fn damexchange_note_is_the_damexchange_crates_copy() {
    let copy = include_str!("../spec/damexchange.md");
    let original = Path::new(env!("CARGO_MANIFEST_DIR")).join("../damexchange/spec/damexchange.md");
    // A packaged board-core (crates.io) has no sibling crate to compare with.
    let Ok(original) = std::fs::read_to_string(&original) else {
        return;
    };
    assert!(
        copy == original,
        "board-core/spec/damexchange.md differs from damexchange/spec/damexchange.md; copy the damexchange crate's note over it"
    );
}
