#![no_main]
boardwire_fuzz::value_target!(novag_citrine, Reply, |replies: &[_]| replies
    .iter()
    .for_each(boardwire_fuzz::citrine::reply_value));
