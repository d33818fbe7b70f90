//! A command whose words may take one of several known values (a variable
//! a branch set differently, an array read at an unknown index), or that
//! may run in one of several folders, is judged once per value, as a loop's
//! body is once per item; when a word may also be something else, once
//! more with that word unknown.

use super::*;

/// The most variants of one command judged.
const MAX_VARIANTS: usize = 16;

/// The command once per combination of its words' choices; `None` when it
/// has none.
pub(super) fn variants(c: &Command) -> Option<Vec<Command>> {
    let chosen = c
        .argv
        .iter()
        .chain(c.redirects.iter().map(|r| &r.target))
        .filter(|w| !w.choices.is_empty())
        .count();
    if chosen == 0 && c.cwd_choices.is_empty() {
        return None;
    }
    let mut out = in_folders(c);
    for i in 0..c.argv.len() + c.redirects.len() {
        let w = word(c, i);
        if w.choices.is_empty() {
            continue;
        }
        // Each value as a literal; a value that may be something else also
        // as one nobody knows.
        let mut values: Vec<Word> = w
            .choices
            .iter()
            .map(|choice| Word {
                text: choice.clone(),
                computed: true,
                subs: w.subs.clone(),
                ..Default::default()
            })
            .collect();
        if w.open {
            values.push(Word {
                text: if w.dynamic {
                    w.text.clone()
                } else if !w.open_as.is_empty() {
                    w.open_as.clone()
                } else {
                    "$(…)".into()
                },
                dynamic: true,
                computed: true,
                subs: w.subs.clone(),
                ..Default::default()
            });
        }
        // Too many to judge one by one: the word as one nobody knows.
        if out.len() * values.len() > MAX_VARIANTS {
            let mut unknown = c.clone();
            for k in 0..c.argv.len() + c.redirects.len() {
                let slot = word_mut(&mut unknown, k);
                if !slot.choices.is_empty() {
                    *slot = Word {
                        text: if slot.dynamic || slot.open_as.is_empty() {
                            slot.text.clone()
                        } else {
                            slot.open_as.clone()
                        },
                        dynamic: true,
                        computed: true,
                        subs: slot.subs.clone(),
                        ..Default::default()
                    };
                }
            }
            return Some(in_folders(&unknown));
        }
        out = out
            .into_iter()
            .flat_map(|v| {
                values.iter().map(move |value| {
                    let mut v = v.clone();
                    *word_mut(&mut v, i) = value.clone();
                    v
                })
            })
            .collect();
    }
    Some(out)
}

/// The command once per folder a branch may have left the line in (the
/// parser keeps at most `MAX_CHOICES` of them, past which the folder is
/// unknown).
fn in_folders(c: &Command) -> Vec<Command> {
    if c.cwd_choices.is_empty() {
        return vec![c.clone()];
    }
    c.cwd_choices
        .iter()
        .map(|d| Command {
            cwd: d.clone(),
            cwd_choices: Vec::new(),
            ..c.clone()
        })
        .collect()
}

fn word(c: &Command, i: usize) -> &Word {
    match c.argv.get(i) {
        Some(w) => w,
        None => &c.redirects[i - c.argv.len()].target,
    }
}

fn word_mut(c: &mut Command, i: usize) -> &mut Word {
    let n = c.argv.len();
    match c.argv.get_mut(i) {
        Some(w) => w,
        None => &mut c.redirects[i - n].target,
    }
}
