//! Machine-learning one-liners: models and datasets that are code once
//! loaded (pickles, `trust_remote_code`, `torch.hub`), and apps published
//! through a public tunnel (`launch(share=True)`, `ngrok.connect`).

use super::code_markers::{LOADS_CODE, RUNS_REMOTE_CODE};
use super::*;

impl Analyzer<'_> {
    /// `l` is the code lowercased with blanks collapsed; `text` as written.
    pub(super) fn model_loading(&mut self, lang: &str, l: &str, text: &str, net: bool) {
        // `trust_remote_code = True` spelled with blanks is the same call.
        let tight: String = l.chars().filter(|c| !c.is_whitespace()).collect();
        if RUNS_REMOTE_CODE.iter().any(|k| tight.contains(k)) {
            self.block(format!(
                "download and execute ({lang} code runs a model's or repository's code fetched from a hub)"
            ));
        }
        // `torch.load` unpickles unless told to load weights only (the
        // default changed in 2.6; which version runs is not known here).
        let loads = LOADS_CODE.iter().any(|k| tight.contains(k))
            || tight.contains("torch.load(") && !tight.contains("weights_only=true");
        // A file this line downloaded, named in the code and loaded.
        let fetched_file = super::code::string_literals(text)
            .iter()
            .any(|s| !s.is_empty() && self.is_tainted(&Word::lit(s.as_str()), None));
        if loads && (net || fetched_file) {
            self.block(format!(
                "download and execute ({lang} code unpickles what it fetched: loading runs its code)"
            ));
        }
        let tunnel = tight.contains("share=true") && tight.contains(".launch(")
            || ["ngrok.connect(", "ngrok.forward(", "localtunnel"]
                .iter()
                .any(|k| tight.contains(k));
        if tunnel {
            self.block(format!(
                "remote shell risk ({lang} code publishes a local app through a public tunnel)"
            ));
        }
    }
}
