//! A command whose words may take one of several known values (a variable
//! a branch set differently, an array read at an unknown index) is judged
//! once per value, as a loop's body is once per item; when a word may also
//! be something unknown, the command as written is judged too.

use super::*;

/// The most variants of one command judged.
const MAX_VARIANTS: usize = 16;

/// The command once per combination of its words' choices; `None` when it
/// has none (or too many to judge one by one: it is judged as written).
pub(super) fn variants(c: &Command) -> Option<Vec<Command>> {
    let chosen = c
        .argv
        .iter()
        .chain(c.redirects.iter().map(|r| &r.target))
        .filter(|w| !w.choices.is_empty())
        .count();
    if chosen == 0 {
        return None;
    }
    let mut out = vec![c.clone()];
    let mut open = false;
    for i in 0..c.argv.len() + c.redirects.len() {
        let w = word(c, i);
        if w.choices.is_empty() {
            continue;
        }
        open |= w.open;
        if out.len() * w.choices.len() > MAX_VARIANTS {
            return None;
        }
        out = out
            .into_iter()
            .flat_map(|v| {
                w.choices.iter().map(move |choice| {
                    let mut v = v.clone();
                    let slot = word_mut(&mut v, i);
                    *slot = Word {
                        text: choice.clone(),
                        computed: true,
                        subs: slot.subs.clone(),
                        ..Default::default()
                    };
                    v
                })
            })
            .collect();
    }
    if open {
        out.push(c.clone());
    }
    Some(out)
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
