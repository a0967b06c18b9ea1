//! A page served on this machine: saying where it is (and who else can reach it) and opening
//! it in the desktop's browser when asked.

use std::io::Write;

use super::warning;
use crate::cli::ReviewArgs;

/// Warns when anyone on the network can `act`, prints `headline` and how to reach the page, and
/// opens it when asked.
pub fn announce(args: &ReviewArgs, act: &str, headline: &str, saved: &str, url: &str) {
    if !args.bind.is_loopback() {
        warning(format_args!(
            "listening on {} — anyone who can reach this machine can {act}",
            args.bind
        ));
    }
    // Printing must not stop the server when nobody reads its output any more.
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{headline}");
    // The page is served, not opened, unless asked: a server or SSH session has no browser.
    let how = if args.open {
        "Opening it in your browser"
    } else {
        "Open it in a browser (or pass --open)"
    };
    let _ = writeln!(out, "{how}; {saved}. Press Ctrl-C to stop.");
    let _ = out.flush();
    if args.open {
        open_browser(url);
    }
}

/// Opens `url` with the desktop's default browser; a failure is only a warning.
fn open_browser(url: &str) {
    let (program, first_args): (&str, &[&str]) = if cfg!(target_os = "macos") {
        ("open", &[])
    } else if cfg!(windows) {
        ("cmd", &["/C", "start", ""])
    } else {
        ("xdg-open", &[])
    };
    let spawned = std::process::Command::new(program)
        .args(first_args)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        warning(format_args!(
            "could not open a browser ({program}: {e}); open {url} yourself"
        ));
    }
}
