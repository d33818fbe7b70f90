//! openssl's subcommands: which only read, which write files, which
//! reach the network or print a key.

use super::*;

impl Analyzer<'_> {
    /// `openssl version`, and printing a certificate, request or CRL
    /// (`x509 -in cert.crt -noout -subject`): read-only when nothing is
    /// written, no key is made and every file read is harmless.
    pub(super) fn openssl(&mut self, c: &Cmd<'_>) -> bool {
        let sub = c.args.first().map(String::as_str).unwrap_or("");
        // `pkcs12 -in K.p12 -nodes` with no `-out`: the keystore's private
        // key printed unencrypted, into the pipe or the transcript.
        if sub == "pkcs12"
            && c.args.iter().any(|x| x == "-nodes" || x == "-noenc")
            && !c
                .args
                .iter()
                .any(|x| x == "-nokeys" || x == "-out" || x == "-export")
        {
            self.block(
                "reveals a private key (openssl pkcs12 prints the keystore's key unencrypted)",
            );
        }
        let writes = c.args.iter().any(|x| {
            matches!(
                x.as_str(),
                "-out"
                    | "-keyout"
                    | "-signkey"
                    | "-new"
                    | "-newkey"
                    | "-req"
                    | "-CA"
                    | "-engine"
                    | "-passin"
                    | "-passout"
            )
        });
        // Keys and passwords a subcommand would read or sign with.
        // Keys it signs with, files it writes, modules it loads.
        let keyed = c.args.iter().any(|x| {
            matches!(
                x.as_str(),
                "-sign"
                    | "-prverify"
                    | "-hmac"
                    | "-mac"
                    | "-kfile"
                    | "-pass"
                    | "-k"
                    | "-K"
                    | "-writerand"
                    | "-provider"
                    | "-provider-path"
                    | "-config"
                    | "-propquery"
            )
        }) || c.assigns.iter().any(|(n, _)| n.starts_with("OPENSSL_"));
        // What it writes is judged as any write (`-writerand ~/.bashrc`).
        for (i, x) in c.args.iter().enumerate() {
            if matches!(x.as_str(), "-out" | "-writerand" | "-keyout")
                && let Some(w) = c.arg_word(i + 1).cloned()
            {
                self.write_path(&w, c.cwd(), "openssl");
            }
        }
        let prints = match sub {
            "version" | "errstr" | "list" | "ciphers" | "help" => true,
            "x509" | "req" | "crl" | "pkcs7" => c.has("-noout") && !writes,
            // Digests, encodings and parses printed, nothing written.
            "dgst" | "sha1" | "sha256" | "sha384" | "sha512" | "md5" | "base64" | "enc"
            | "asn1parse" | "verify" | "rand" => !writes && !keyed,
            _ => false,
        };
        if !prints {
            self.ask("runs openssl");
            return false;
        }
        let mut harmless = true;
        for (i, x) in c.args.iter().enumerate() {
            if matches!(x.as_str(), "-in" | "-CAfile" | "-untrusted")
                && let Some(w) = c.arg_word(i + 1).cloned()
            {
                harmless &= self.read_path(&w, c.cwd());
            }
        }
        // `openssl dgst -sha256 FILE…`: the files digested.
        if matches!(
            sub,
            "dgst" | "sha1" | "sha256" | "sha384" | "sha512" | "md5" | "verify"
        ) {
            let valued = |k: usize| {
                k > 1
                    && matches!(
                        c.args[k - 1].as_str(),
                        "-in" | "-CAfile" | "-untrusted" | "-out" | "-signature"
                    )
            };
            for k in 1..c.args.len() {
                if !c.args[k].starts_with('-')
                    && !valued(k)
                    && let Some(w) = c.arg_word(k).cloned()
                {
                    harmless &= self.read_path(&w, c.cwd());
                }
            }
        }
        if !harmless {
            self.ask("openssl reads a file outside the working directory");
        }
        harmless
    }
}
