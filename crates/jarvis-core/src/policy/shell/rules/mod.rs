//! The verdicts, decided by effect: each simple command is reduced to the
//! program that really runs (wrappers peeled, aliases and functions
//! followed), then judged by what it reads, writes, deletes, runs and sends.
//! Only what is provably read-only is allowed without asking; what cannot be
//! analysed counts against the command.

mod accounting;
mod archives;
mod awk_sed;
mod backups;
mod build_hooks;
mod captures;
mod choices;
mod cloud_grants;
mod cluster_jobs;
mod cmd;
mod code;
mod code_effects;
mod code_fold;
mod code_markers;
mod code_servers;
mod code_shapes;
mod code_writes;
mod consoles;
mod copies;
mod credential_hosts;
mod data_tools;
mod debuggers;
mod desktop_guards;
mod devices;
mod dialects;
mod dispatch;
mod dormant;
mod drops;
mod effects;
mod env_runners;
mod env_wrapper;
mod exec;
mod fetched_code;
mod file_urls;
mod files;
mod finders;
mod flashers;
mod forge_access;
mod functions;
mod git;
mod git_places;
mod git_settings;
mod handoffs;
mod hotkeys;
mod infra;
mod inspectors;
mod intercept;
mod interpreters;
mod jvm_hooks;
mod jvm_queries;
mod kernel;
mod listers;
mod long_tail;
mod lookups;
mod mail;
mod makefiles;
mod media_tools;
mod ml_tools;
mod model_code;
mod modules;
mod named_outputs;
mod net;
mod openers;
mod openocd;
mod openssl;
mod option_walk;
mod options;
mod package_trust;
mod packages;
mod packet_reads;
mod perms;
mod pipe_sources;
mod pipes;
mod planted;
mod planted_parse;
mod planted_text;
mod plugin_drops;
mod positions;
mod project_out;
mod published;
mod python_modules;
mod reader_flags;
mod readonly;
mod redirects;
mod remote;
mod remote_runs;
mod remote_stores;
mod reveals;
mod safety_off;
mod script;
mod script_opts;
mod secret_managers;
mod secret_reads;
mod secrets;
mod self_hosting;
mod servers;
mod shippers;
mod signals_pools;
mod sources;
mod spawners;
mod sqlite;
mod ssh;
mod startup;
mod stdin_executors;
mod streams;
mod subscripts;
mod system;
mod system_containers;
mod system_queries;
mod tables;
mod tar;
mod terminal_control;
mod terminal_queries;
mod tmpfiles;
mod token_search;
mod tokens;
mod tool_settings;
mod toolchain_lists;
mod toolchains;
mod traces;
mod trust_roots;
mod tunnels;
mod user_exports;
mod vim_ex;
mod virt;
mod virt_queries;
mod wallets;
mod web_configs;
mod windows;
mod wrappers;
mod writes;

use super::parse::{self, Command, HOME, Redirect, Script, Word, is_fd};
use super::paths;
use super::{Analysis, ShellEnv};
use crate::policy::Verdict;
use perms::setuid_mode;
use pipes::reads_stdin_only;
use positions::operands;
use wrappers::peeled;

pub(super) use cmd::{
    Cmd, base_name, base_str, eq_value, is_shell, letter_flags, long_value, lower, program_name,
    short_flags, short_has, shown, spells,
};
pub(super) use dispatch::{Producer, known_program, path_candidates};

const MAX_DEPTH: usize = 8;

/// Scripts one line may make the analyser judge (each nested script, call
/// and value a branch left counts): a line past it is built to exhaust it.
const MAX_WORK: usize = 4_000;

pub struct Analyzer<'e> {
    env: &'e ShellEnv,
    verdict: Verdict,
    reason: String,
    bases: Vec<String>,
    /// Every block's reason, when asked for all of them (`apart_all`): the
    /// analysis then does not stop at the first.
    every_block: Option<Vec<String>>,
    /// Something in the line runs at all.
    any: bool,
    /// A program in the line downloads, or decodes: code built at run time
    /// may come from it.
    fetches: bool,
    decodes: bool,
    /// Files written from a download or a decoder in this line.
    tainted: Vec<String>,
    /// The line sets environment variables for what it runs (`export X=…`,
    /// `env X=… cmd`): a tool's read-only form may then read elsewhere.
    env_changed: bool,
    /// Assignments `env` gave the program being judged.
    env_given: Vec<(String, Word)>,
    /// Those of them downloaded from a code forge only (a project's
    /// release page), where installing one asks.
    forge_fetched: Vec<String>,
    /// Folders this line made git's hooks folder (`core.hooksPath`).
    hook_dirs: Vec<String>,
    /// Folders a clone from another machine filled in this line: a file
    /// in one run as a program is downloaded code.
    cloned: Vec<String>,
    /// Names bound to another program (`hash -p`, `ln -s /bin/rm ./ls`, aliases).
    renamed: Vec<(String, String)>,
    aliases: Vec<(String, String)>,
    functions: Vec<(String, String)>,
    maybe_functions: Vec<(String, String)>,
    calls: usize,
    /// Commands of the script being judged that print project paths.
    listers: Vec<usize>,
    /// Commands of the script being judged that print places in the project.
    place_listers: Vec<usize>,
    /// Commands of the current script that search for secrets by name.
    secret_finders: Vec<usize>,
    /// Commands of the current script that list a whole system or home
    /// (`ls -d /*`, `find ~ -maxdepth 1`): their lines may name any of it.
    machine_listers: Vec<usize>,
    /// Function names that, at the command being judged, are not (yet or
    /// any more) functions: the program of that name runs.
    hidden_fns: Vec<String>,
    /// This script's functions' bodies as they are at the command judged.
    bodies_now: Vec<(String, String)>,
    /// Functions whose bodies are being judged: a call of one from inside
    /// itself is that same body again (recursion with a base case ends;
    /// one without is found by the parser as a fork bomb).
    inlining: Vec<String>,
    /// Files this line writes with known text, and that text.
    written: Vec<(String, String)>,
    /// Judging a command that runs on another machine (`ssh host CMD`).
    remote: bool,
    /// Judging text that may only be code (an unknown program's argument,
    /// `gimp -b '(let* …)'`): a wildcard in its first word is a pattern,
    /// not a disguise.
    guessed: bool,
    /// Symlinks this line made: link → target (normalised).
    links: Vec<(String, String)>,
    /// `norm_text`'s answers for this line (`raw\0cwd` → path): the same
    /// literal is placed by many rules. Emptied when `links` grows.
    norms: std::cell::RefCell<std::collections::HashMap<String, String>>,
    /// Commands (by address) that read Jarvis's state.
    sensitive: Vec<usize>,
    /// The folder of the command being judged, where code it hands on
    /// (`sh -c`, `eval`, an alias) starts.
    cwd_now: Option<String>,
    state_reads: usize,
    /// The database SQLite's own shell opens in the command being judged
    /// (normalised): its statements say which tables it reads.
    db_engine: Option<String>,
    /// Scripts judged so far for this line, nested ones included.
    work: usize,
    /// Each text parsed for this line, with its positional values: a
    /// function's body at every call, a loop's body per value and each
    /// variant of a command are often the same text again.
    parsed: std::collections::HashMap<(String, Vec<String>), std::rc::Rc<Script>>,
}

impl<'e> Analyzer<'e> {
    pub fn new(env: &'e ShellEnv) -> Self {
        Analyzer {
            env,
            verdict: Verdict::Allow,
            reason: String::new(),
            bases: vec![],
            every_block: None,
            any: false,
            fetches: false,
            decodes: false,
            tainted: vec![],
            env_changed: false,
            env_given: Vec::new(),
            cloned: vec![],
            renamed: vec![],
            aliases: vec![],
            functions: vec![],
            maybe_functions: vec![],
            calls: 0,
            listers: Vec::new(),
            place_listers: Vec::new(),
            secret_finders: Vec::new(),
            machine_listers: Vec::new(),
            hidden_fns: Vec::new(),
            bodies_now: Vec::new(),
            inlining: Vec::new(),
            written: vec![],
            forge_fetched: vec![],
            hook_dirs: vec![],
            remote: false,
            guessed: false,
            links: vec![],
            norms: Default::default(),
            sensitive: vec![],
            cwd_now: None,
            state_reads: 0,
            db_engine: None,
            work: 0,
            parsed: Default::default(),
        }
    }

    pub fn finish(mut self) -> Analysis {
        self.bases.sort();
        self.bases.dedup();
        let reason = if !self.any && self.verdict == Verdict::Allow {
            "nothing to run".into()
        } else if self.reason.is_empty() {
            "read-only".into()
        } else {
            self.reason
        };
        Analysis {
            verdict: self.verdict,
            reason,
            bases: self.bases,
        }
    }

    /// Raises the verdict; the first reason at the highest level is kept.
    fn raise(&mut self, v: Verdict, why: impl Into<String>) {
        let why = why.into();
        if v == Verdict::Block
            && let Some(all) = self.every_block.as_mut()
        {
            all.push(why.clone());
        }
        if v > self.verdict || (v == self.verdict && v != Verdict::Allow && self.reason.is_empty())
        {
            self.verdict = v;
            self.reason = why;
        }
    }

    /// Blocked, and the analysis may stop: no later finding changes the
    /// verdict or its first reason (unless every block is being listed).
    pub(super) fn settled(&self) -> bool {
        self.verdict == Verdict::Block && self.every_block.is_none()
    }

    /// As [`Self::apart`], with the reason of every block found: a harmless
    /// block first (`ech? hi; curl … | sh`) does not hide a grave one.
    pub(super) fn apart_all(
        &mut self,
        f: impl FnOnce(&mut Analyzer<'_>),
    ) -> (Analysis, Vec<String>) {
        self.fresh(true, f)
    }

    /// A fresh analyser sharing this one's work budget and parses, run
    /// through `f`; with `every`, it lists every block it finds.
    fn fresh(&mut self, every: bool, f: impl FnOnce(&mut Analyzer<'_>)) -> (Analysis, Vec<String>) {
        let mut sub = Analyzer::new(self.env);
        sub.work = self.work;
        // (A text parses the same in any analyser: an inner script judged
        // apart is parsed once for the whole line.)
        sub.parsed = std::mem::take(&mut self.parsed);
        sub.every_block = every.then(Vec::new);
        f(&mut sub);
        self.work = sub.work;
        self.parsed = std::mem::take(&mut sub.parsed);
        let all = sub.every_block.take().unwrap_or_default();
        (sub.finish(), all)
    }

    pub(super) fn block(&mut self, why: impl Into<String>) {
        self.raise(Verdict::Block, why);
    }

    pub(super) fn ask(&mut self, why: impl Into<String>) {
        self.raise(Verdict::Ask, why);
    }

    /// What `f` decides on a fresh analyser of its own (sharing this one's
    /// work budget), leaving this one's verdict as it is.
    pub(super) fn apart(&mut self, f: impl FnOnce(&mut Analyzer<'_>)) -> Analysis {
        self.fresh(false, f).0
    }

    /// Runs `f` with a fresh verdict and returns what it alone decided,
    /// keeping the strictest overall.
    pub(super) fn judged(&mut self, f: impl FnOnce(&mut Self)) -> Verdict {
        let before = (self.verdict, std::mem::take(&mut self.reason));
        self.verdict = Verdict::Allow;
        f(self);
        let mine = (self.verdict, std::mem::take(&mut self.reason));
        if before.0 >= mine.0 {
            self.verdict = before.0;
            self.reason = before.1;
        } else {
            self.verdict = mine.0;
            self.reason = mine.1.clone();
        }
        if before.0 == Verdict::Allow && mine.0 == Verdict::Allow {
            self.reason = String::new();
        }
        mine.0
    }
}
