//! Microcontroller programmers: the files they read to flash a device and
//! the files they write with what they read back from one (`avrdude -U
//! eeprom:r:FILE`, `esptool read_flash … FILE`), judged as any reader's or
//! writer's.
//!
//! dfu-util's names are the device's point of view: `-U FILE` (upload)
//! copies the device's memory into FILE, `-D FILE` (download) flashes FILE.
//! (OpenOCD's commands are Tcl: `openocd.rs`.)

use super::*;

impl Analyzer<'_> {
    pub(super) fn flashers(&mut self, c: &Cmd<'_>) {
        match c.lb.as_str() {
            "avrdude" => {
                // `-U memtype:op:filename[:format]`, or glued (`-Uflash:w:…`).
                let specs: Vec<Word> = c
                    .words
                    .iter()
                    .enumerate()
                    .skip(1)
                    .filter_map(|(i, w)| match w.text.strip_prefix("-U") {
                        Some("") => c.words.get(i + 1).cloned(),
                        Some(v) => Some(Word {
                            text: v.to_string(),
                            ..w.clone()
                        }),
                        None => None,
                    })
                    .collect();
                for spec in specs {
                    let mut parts = spec.text.splitn(3, ':');
                    let (Some(_mem), Some(op), Some(rest)) =
                        (parts.next(), parts.next(), parts.next())
                    else {
                        continue;
                    };
                    // The format after the last colon is one letter (`:i`, `:r`).
                    let file = match rest.rsplit_once(':') {
                        Some((f, fmt)) if fmt.len() == 1 => f,
                        _ => rest,
                    };
                    let w = Word {
                        text: file.to_string(),
                        ..spec.clone()
                    };
                    if op == "r" {
                        self.write_path(&w, c.cwd(), "avrdude -U …:r:");
                    } else {
                        self.read_path(&w, c.cwd());
                    }
                }
            }
            "esptool" | "esptool.py" => {
                // The command is the first operand that names one (past
                // `--port /dev/ttyUSB0`), its own operands after it.
                const VERBS: &[&str] = &[
                    "read_flash",
                    "read-flash",
                    "dump_mem",
                    "dump-mem",
                    "write_flash",
                    "write-flash",
                ];
                let at = c
                    .words
                    .iter()
                    .position(|w| VERBS.contains(&w.text.as_str()));
                let ops: Vec<&Word> = at
                    .map(|i| {
                        c.words[i..]
                            .iter()
                            .filter(|w| !w.text.starts_with('-'))
                            .collect()
                    })
                    .unwrap_or_default();
                let verb = ops.first().map(|w| w.text.as_str()).unwrap_or("");
                let address =
                    |t: &str| t.starts_with("0x") || t.chars().all(|ch| ch.is_ascii_digit());
                match verb {
                    // `read_flash ADDR SIZE FILE`: the file is the last word.
                    "read_flash" | "read-flash" | "dump_mem" | "dump-mem" => {
                        if let Some(w) = ops.last().filter(|w| !address(&w.text)) {
                            let w = (*w).clone();
                            self.write_path(&w, c.cwd(), "esptool");
                        }
                    }
                    // `write_flash ADDR FILE [ADDR FILE…]`: each file follows
                    // its address.
                    "write_flash" | "write-flash" => {
                        for pair in ops
                            .windows(2)
                            .filter(|p| address(&p[0].text) && !address(&p[1].text))
                        {
                            let w = pair[1].clone();
                            self.read_path(&w, c.cwd());
                        }
                    }
                    _ => {}
                }
            }
            "dfu-util" => {
                for w in super::script_opts::values(c, &["-U", "--upload"]) {
                    self.write_path(&w, c.cwd(), "dfu-util -U");
                }
                for w in super::script_opts::values(c, &["-D", "--download"]) {
                    self.read_path(&w, c.cwd());
                }
            }
            _ => {}
        }
    }
}
