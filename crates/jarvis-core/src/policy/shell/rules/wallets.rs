//! Cryptocurrency wallets' commands that print what spends the coins: a
//! private key, a descriptor with its keys, a seed. Whoever reads one owns
//! the wallet, so it is a credential read whatever the wallet file is.

use super::*;

/// A coin node's RPC client: the method is its first operand.
const RPC_CLIENTS: &[&str] = &[
    "bitcoin-cli",
    "litecoin-cli",
    "dogecoin-cli",
    "elements-cli",
    "dash-cli",
    "zcash-cli",
];

impl Analyzer<'_> {
    pub(super) fn wallet_secrets(&mut self, c: &Cmd<'_>) {
        let wallet = RPC_CLIENTS.contains(&c.lb.as_str())
            || matches!(
                c.lb.as_str(),
                "electrum"
                    | "electrum-ltc"
                    | "monero-wallet-cli"
                    | "wownero-wallet-cli"
                    | "cast"
                    | "ethkey"
                    | "bitcoin-wallet"
            );
        if !wallet {
            return;
        }
        // Operands past the options and their values (`--wallet W`, `-D DIR`).
        let mut ops: Vec<String> = Vec::new();
        let mut i = 0;
        while let Some(a) = c.args.get(i) {
            if matches!(
                a.as_str(),
                "-w" | "--wallet"
                    | "-D"
                    | "--dir"
                    | "--password"
                    | "-W"
                    | "--wallet-file"
                    | "--password-file"
                    | "--daemon-address"
                    | "--log-file"
                    | "--config-file"
            ) {
                i += 2;
                continue;
            }
            if !a.starts_with('-') {
                ops.push(a.to_ascii_lowercase());
            }
            i += 1;
        }
        let op = |k: usize| ops.get(k).map(String::as_str).unwrap_or("");
        let what = match c.lb.as_str() {
            b if RPC_CLIENTS.contains(&b) => rpc_reveals(&ops),
            "electrum" | "electrum-ltc" => matches!(
                op(0),
                "getprivatekeys"
                    | "getseed"
                    | "dumpprivkeys"
                    | "getmasterprivate"
                    | "getprivatekeyforpath"
            )
            .then_some("its private keys or seed"),
            // `--command seed`, `--command=spendkey`.
            "monero-wallet-cli" | "wownero-wallet-cli" => c
                .args
                .iter()
                .enumerate()
                .filter_map(|(i, a)| match a.strip_prefix("--command=") {
                    Some(v) => Some(v),
                    None if a == "--command" => c.args.get(i + 1).map(String::as_str),
                    None => None,
                })
                .chain(ops.iter().map(String::as_str))
                .any(|v| matches!(v, "seed" | "spendkey" | "viewkey" | "encrypted_seed"))
                .then_some("its seed or private keys"),
            // `bitcoin-wallet -wallet=W -dumpfile=F dump`: every record, keys too.
            "bitcoin-wallet" => ops
                .iter()
                .any(|o| o == "dump")
                .then_some("its private keys"),
            "cast" => (op(0) == "wallet"
                && matches!(
                    op(1),
                    "decrypt-keystore" | "private-key" | "derive-private-key" | "dk" | "pk"
                ))
            .then_some("a private key"),
            "ethkey" => (op(0) == "inspect" && c.has("--private")).then_some("a private key"),
            _ => None,
        };
        if let Some(what) = what {
            self.block(format!(
                "reveals a wallet's secret: {} prints {what}, which spends its coins",
                c.base
            ));
        }
    }
}

/// `dumpprivkey`, `dumpwallet FILE`, `listdescriptors true`,
/// `-named listdescriptors private=true`, `gethdkeys '{"private":true}'`.
fn rpc_reveals(ops: &[String]) -> Option<&'static str> {
    let method = ops.first()?;
    let private = || {
        ops[1..].iter().any(|a| {
            let compact: String = a
                .chars()
                .filter(|ch| !ch.is_whitespace() && *ch != '"')
                .collect();
            compact == "true"
                || compact.contains("private=true")
                || compact.contains("private:true")
        })
    };
    match method.as_str() {
        "dumpprivkey" | "dumpwallet" | "dumpmasterprivkey" | "z_exportkey" | "z_exportwallet" => {
            Some("private keys")
        }
        "dumphdinfo" => Some("its seed words"),
        "listdescriptors" | "gethdkeys" if private() => Some("descriptors with their private keys"),
        _ => None,
    }
}
