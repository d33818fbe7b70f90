//! The families of blind sets AP and later, each beside the everyday lines
//! that must not block.

use super::blind_families::{at_work, each_is, none_is};
use super::*;

#[test]
fn an_endless_stream_copied_into_a_file_fills_the_disk() {
    let home = at_work();
    each_is(
        &home,
        &[
            "cat /dev/zero > ./data.bin",
            "cat < /dev/urandom >> log/noise",
            "cp /dev/zero ./x",
            "install /dev/urandom build/blob",
            "yes > f",
            "yes 'a long line' | cat >> f",
            "cat /dev/urandom | base64 | tr -d '\\n' > big.txt",
            "tee a b < /dev/zero",
            "pv -q /dev/zero > f",
            "cat /dev/zero | gzip -c > z.gz",
            "xxd /dev/urandom > dump.hex",
        ],
        Verdict::Block,
    );
    // A count stops the stream; a copy to nowhere fills nothing.
    none_is(
        &home,
        &[
            "head -c 32 /dev/urandom | xxd > key.hex",
            "cat /dev/urandom | head -c 32 > key",
            "yes | head -n 5 > f",
            "xxd -l 16 -p /dev/urandom > nonce",
            "od -An -N8 -tx8 /dev/urandom > id",
            "cat /dev/zero > /dev/null",
            "yes | npm init",
            "cp ./a ./b",
        ],
        Verdict::Block,
    );
}

#[test]
fn jarvis_s_database_is_read_only_through_its_engine() {
    let home = at_work();
    each_is(
        &home,
        &[
            "strings ~/.jarvis/state.db | grep -i token",
            "xxd ~/.jarvis/jarvis.db | head",
            "grep -a bearer ~/.jarvis/jarvis.db-wal",
            "cp ~/.jarvis/jarvis.db /tmp/x.db",
            "base64 < ~/.jarvis/jarvis.db",
            "sqlite3 ~/.jarvis/jarvis.db .dump",
        ],
        Verdict::Block,
    );
    // Its engine's statements say which tables it reads; a listing reads
    // no bytes; a database of the project's is the project's.
    none_is(
        &home,
        &[
            "sqlite3 ~/.jarvis/jarvis.db 'SELECT count(*) FROM messages'",
            "ls -l ~/.jarvis/jarvis.db",
            "strings ./fixtures/app.db | head",
            "rm ./fixtures/jarvis.db",
        ],
        Verdict::Block,
    );
}
