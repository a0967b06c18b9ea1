//! A private `llama-server` for keyless runs: started on a free loopback port with one slot per
//! request in flight, asked for its real context size, and stopped when the [`super::Llm`] is
//! shut down or dropped, when this process gets SIGTERM or SIGINT (a handler kills the servers,
//! then lets the signal end the process as it would have), and, through the parent-death
//! signal, when this process dies any other way (`kill -9`).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::process::{Child, Command};

use super::error::LlmError;
use super::spec::env;

const PROVIDER: &str = "llamacpp";
const INSTALL: &str = "run `bash scripts/install-llm.sh`";
/// Loading a model from a cold disk can take a while on a small machine.
const STARTUP: Duration = Duration::from_secs(180);

/// A model `scripts/install-llm.sh` installs, known by a short name (`--llm llamacpp:<name>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownModel {
    /// The name `llamacpp:<name>` takes.
    pub name: &'static str,
    /// Its file under the cache's `models/` folder.
    pub file: &'static str,
}

/// The installed models, the default first. Qwen2.5-Coder-1.5B writes usable questions and
/// judges well enough to trust (docs/benchmarks.md); SmolLM2-135M is ten times faster and only
/// good for plumbing tests.
pub const MODELS: &[KnownModel] = &[
    KnownModel {
        name: "qwen2.5-coder-1.5b",
        file: "Qwen2.5-Coder-1.5B-Instruct.Q4_K_M.gguf",
    },
    KnownModel {
        name: "smollm2",
        file: "SmolLM2-135M-Instruct.Q4_1.gguf",
    },
];

/// The model `llamacpp` with no name runs.
pub const DEFAULT_MODEL: KnownModel = MODELS[0];

/// The cache root: `$RAGSYNTH_CACHE` or `~/.cache/ragsynth`.
pub fn cache_root() -> PathBuf {
    if let Some(c) = env("RAGSYNTH_CACHE") {
        return PathBuf::from(c);
    }
    let home = env("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    home.join(".cache").join("ragsynth")
}

/// The `llama-server` to run: the configured one, `$RAGSYNTH_LLAMA_SERVER`, or the installed one.
pub fn server_binary(configured: Option<&Path>) -> PathBuf {
    configured
        .map(Path::to_path_buf)
        .or_else(|| env("RAGSYNTH_LLAMA_SERVER").map(PathBuf::from))
        .unwrap_or_else(|| cache_root().join("bin").join("llama-server"))
}

/// The model file: the spec's name or path, else `$RAGSYNTH_MODEL` (a name or a path), else the
/// installed default. A known name stands for its file in the cache.
pub fn model_file(spec: Option<&Path>) -> PathBuf {
    let chosen = spec
        .map(Path::to_path_buf)
        .or_else(|| env("RAGSYNTH_MODEL").map(PathBuf::from));
    match chosen {
        Some(p) => match known(&p) {
            Some(m) => cache_root().join("models").join(m.file),
            None => p,
        },
        None => cache_root().join("models").join(DEFAULT_MODEL.file),
    }
}

/// The known model a spec names, if it is a bare name rather than a path.
fn known(p: &Path) -> Option<KnownModel> {
    let s = p.to_str()?;
    MODELS.iter().copied().find(|m| m.name.eq_ignore_ascii_case(s))
}

fn known_names() -> String {
    MODELS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
}

/// A running server.
#[derive(Debug)]
pub(crate) struct Server {
    child: Child,
    /// `http://127.0.0.1:<port>/v1`.
    pub base_url: String,
    /// Context tokens per slot, from `/props`.
    pub n_ctx: Option<usize>,
    /// Slots, from `/props`.
    pub slots: usize,
}

/// How to run the server.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options<'a> {
    pub binary: &'a Path,
    pub model: &'a Path,
    /// Parallel slots (requests served at once).
    pub slots: usize,
    /// Context tokens per slot.
    pub ctx: usize,
    /// CPU threads for generation.
    pub threads: usize,
    /// CPU threads for prompt processing (`None`: as many as for generation).
    pub threads_batch: Option<usize>,
    /// Where the server's own log goes.
    pub log: &'a Path,
}

/// Default threads, for generation and prompt processing alike: every core of an idle machine,
/// half the cores of a busy one. Prompt processing is where a small model on a CPU spends its
/// time (the README demo: 10.7k prompt tokens, 1.9k generated) and it scales with threads: 157
/// prompt tokens/s on two threads against 84 on one. The demo's own requests replayed
/// (`scripts/bench-llm-threads.sh`, idle 2-core machine, issue 68) ran fastest with one
/// generation thread and two slots (208 s against 224 s for two threads), but the demo itself,
/// which often has one request in flight, took 302 s so, against 246 s with two. The server's
/// threads spin while they wait for each other, so claiming every core of a busy machine slows
/// it several-fold (on 2 shared, busy cores 1 thread answered in 2.9 s where 2 threads took
/// 27 s). A machine is busy when other programs keep at least half its cores busy in the half
/// second before the server starts ([`others_busy_cores`]); not by the load average, which
/// still counts for a minute the build or the install that ran just before (the README
/// demo's own). `[llm] threads` and `threads_batch` override.
pub fn default_threads() -> usize {
    threads_for(cores(), others_busy_cores())
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How long the machine is watched before the server starts: long against the kernel's tick
/// (100 a second), short against the server's own start.
const WATCH: std::time::Duration = std::time::Duration::from_millis(500);

/// How many cores other programs keep busy now: the machine's non-idle CPU time over
/// [`WATCH`] (Linux `/proc/stat`) less this process's own (`/proc/self/stat`), in cores;
/// `None` where those files are not (then the machine is taken as idle).
fn others_busy_cores() -> Option<f64> {
    let (machine, own) = (machine_ticks()?, own_ticks()?);
    std::thread::sleep(WATCH);
    let (machine_after, own_after) = (machine_ticks()?, own_ticks()?);
    let busy = machine_after.0.saturating_sub(machine.0);
    let total = machine_after.1.saturating_sub(machine.1);
    let own = own_after.saturating_sub(own);
    (total > 0).then(|| busy.saturating_sub(own) as f64 / total as f64 * cores() as f64)
}

/// The machine's CPU ticks since boot, all cores: (not idle, all).
fn machine_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    // user nice system idle iowait irq softirq steal (guest time is inside user already).
    let t: Vec<u64> = line
        .split_ascii_whitespace()
        .skip(1)
        .take(8)
        .filter_map(|v| v.parse().ok())
        .collect();
    let [user, nice, system, idle, iowait, irq, softirq, steal] = t[..] else {
        return None;
    };
    let all = user + nice + system + idle + iowait + irq + softirq + steal;
    Some((all - idle - iowait, all))
}

/// This process's CPU ticks, user and system (fields 14 and 15 of `/proc/self/stat`, counted
/// after the command name, which may hold spaces).
fn own_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_ascii_whitespace().collect();
    // After the name, field 3 (state) is index 0: utime (14) is index 11, stime (15) index 12.
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

fn threads_for(cores: usize, busy_cores: Option<f64>) -> usize {
    let busy = busy_cores.is_some_and(|b| b >= cores as f64 / 2.0);
    if busy { (cores / 2).max(1) } else { cores.max(1) }
}

/// Starts a server as `opts` says and waits until it answers `/health`.
pub(crate) async fn start(opts: &Options<'_>) -> Result<Server, LlmError> {
    let Options {
        binary,
        model,
        slots,
        ctx,
        threads,
        threads_batch,
        log,
    } = *opts;
    if !binary.is_file() {
        return Err(LlmError::fatal(
            PROVIDER,
            format!(
                "llama-server not found at {}: {INSTALL} (or set RAGSYNTH_LLAMA_SERVER)",
                binary.display()
            ),
        ));
    }
    if !model.is_file() {
        return Err(LlmError::fatal(
            PROVIDER,
            format!(
                "model not found at {}: {INSTALL} (installs {}), or give llamacpp:<path.gguf>",
                model.display(),
                known_names()
            ),
        ));
    }
    let port = free_port().map_err(|e| LlmError::fatal(PROVIDER, format!("no free loopback port: {e}")))?;
    if let Some(dir) = log.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let log_file = std::fs::File::create(log).map_err(|e| {
        LlmError::fatal(
            PROVIDER,
            format!("cannot write the server log {}: {e}", log.display()),
        )
    })?;
    let mut cmd = Command::new(binary);
    cmd.arg("--model")
        .arg(model)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        // -c is shared by the slots, so each slot gets `ctx`.
        .args([
            "--ctx-size",
            &(ctx * slots).to_string(),
            "--parallel",
            &slots.to_string(),
        ])
        .args(["--threads", &threads.to_string(), "--no-webui", "--seed", "0"])
        .args(
            threads_batch
                .into_iter()
                .flat_map(|n| ["--threads-batch".to_string(), n.to_string()]),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(log_file))
        .kill_on_drop(true);
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_PDEATHSIG is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            // SIGKILL: llama-server finishes its requests on SIGTERM, which can take seconds.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let child = cmd
        .spawn()
        .map_err(|e| LlmError::fatal(PROVIDER, format!("cannot start {}: {e}", binary.display())))?;
    if let Some(pid) = child.id() {
        signals::register(pid);
    }
    step_aside();
    let mut server = Server {
        child,
        base_url: format!("http://127.0.0.1:{port}/v1"),
        n_ctx: None,
        slots,
    };
    let root = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .map_err(|e| LlmError::fatal(PROVIDER, format!("cannot build the HTTP client: {e}")))?;
    let started = Instant::now();
    loop {
        if let Ok(Some(status)) = server.child.try_wait() {
            return Err(LlmError::fatal(
                PROVIDER,
                format!("llama-server exited ({status}) while starting: {}", log_tail(log)),
            ));
        }
        let healthy = http
            .get(format!("{root}/health"))
            .timeout(Duration::from_secs(2))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success());
        if healthy {
            break;
        }
        if started.elapsed() > STARTUP {
            server.stop().await;
            return Err(LlmError::fatal(
                PROVIDER,
                format!(
                    "llama-server not healthy after {}s: {}",
                    STARTUP.as_secs(),
                    log_tail(log)
                ),
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if let Ok(resp) = http
        .get(format!("{root}/props"))
        .timeout(Duration::from_secs(10))
        .send()
        .await
        && let Ok(props) = resp.json::<Value>().await
    {
        let (n_ctx, total) = read_props(&props);
        server.n_ctx = n_ctx;
        server.slots = total.unwrap_or(slots);
    }
    Ok(server)
}

/// How much lower than its server this process's own threads run.
const STEP_ASIDE: i32 = 5;

/// Lowers the CPU priority of this process's own threads below its server's, once (Linux, where
/// a nice value is per thread; threads started later inherit it). The server's threads spin
/// while they wait for each other, so a burst of ragsynth's own work — checking a candidate
/// while the next request is answered — on a core the server uses stalls every one of its
/// threads; at a lower priority that work runs in the server's gaps, off the critical path.
fn step_aside() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
                return;
            };
            for task in tasks.flatten() {
                let Some(tid) = task
                    .file_name()
                    .to_str()
                    .and_then(|t| t.parse::<libc::id_t>().ok())
                else {
                    continue;
                };
                // SAFETY: getpriority and setpriority only read and set the scheduling priority
                // of a thread of this process; errno is reset first to tell -1 from an error.
                unsafe {
                    *libc::__errno_location() = 0;
                    let now = libc::getpriority(libc::PRIO_PROCESS, tid);
                    if now == -1 && *libc::__errno_location() != 0 {
                        continue;
                    }
                    libc::setpriority(libc::PRIO_PROCESS, tid, (now + STEP_ASIDE).min(19));
                }
            }
        });
    }
}

/// `(n_ctx per slot, total_slots)` from a `/props` answer.
fn read_props(props: &Value) -> (Option<usize>, Option<usize>) {
    let n_ctx = props
        .pointer("/default_generation_settings/n_ctx")
        .or_else(|| props.get("n_ctx"))
        .and_then(Value::as_u64)
        .map(|n| n as usize);
    let slots = props
        .get("total_slots")
        .and_then(Value::as_u64)
        .map(|n| n as usize);
    (n_ctx, slots)
}

impl Server {
    /// Stops the server and waits for it to exit.
    pub(crate) async fn stop(&mut self) {
        if let Some(pid) = self.child.id() {
            signals::unregister(pid);
        }
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // The child itself is killed on drop (`kill_on_drop`).
        if let Some(pid) = self.child.id() {
            signals::unregister(pid);
        }
    }
}

/// Stops the servers on SIGTERM and SIGINT. The default action of either signal ends this
/// process at once and leaves its children running; the handler kills the registered servers
/// first, then restores the default action and raises the signal again, so the process still
/// ends the way it would have (killed by that signal).
mod signals {
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Pids of running servers; 0 marks a free slot. A fixed array: the handler may not lock
    /// or allocate.
    static PIDS: [AtomicI32; 32] = [const { AtomicI32::new(0) }; 32];
    static INSTALL: Once = Once::new();

    pub(super) fn register(pid: u32) {
        INSTALL.call_once(install);
        let pid = pid as i32;
        for slot in &PIDS {
            if slot
                .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
        // More servers than slots: those still die with this process through the parent-death
        // signal, only not before it.
    }

    pub(super) fn unregister(pid: u32) {
        let pid = pid as i32;
        for slot in &PIDS {
            let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }

    extern "C" fn on_signal(signo: libc::c_int) {
        for slot in &PIDS {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill is async-signal-safe.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        // SAFETY: signal and raise are async-signal-safe; the default action ends the process.
        unsafe {
            libc::signal(signo, libc::SIG_DFL);
            libc::raise(signo);
        }
    }

    fn install() {
        for signo in [libc::SIGTERM, libc::SIGINT] {
            // SAFETY: installs a handler that only calls async-signal-safe functions; a signal
            // someone else already handles is left alone.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signo, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction != libc::SIG_DFL
                {
                    continue;
                }
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                libc::sigemptyset(&mut act.sa_mask);
                libc::sigaction(signo, &act, std::ptr::null_mut());
            }
        }
    }
}

fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The last lines of the server log, for error messages.
fn log_tail(log: &Path) -> String {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().rev().take(5).collect();
    let tail: Vec<&str> = lines.into_iter().rev().collect();
    format!("log {}: {}", log.display(), tail.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn props_give_context_and_slots() {
        let p = serde_json::json!({"default_generation_settings": {"n_ctx": 4096}, "total_slots": 2});
        assert_eq!(read_props(&p), (Some(4096), Some(2)));
        assert_eq!(read_props(&serde_json::json!({})), (None, None));
    }

    #[test]
    fn known_names_stand_for_installed_files_and_paths_stay_paths() {
        let root = cache_root().join("models");
        assert_eq!(
            model_file(Some(Path::new("smollm2"))),
            root.join("SmolLM2-135M-Instruct.Q4_1.gguf")
        );
        assert_eq!(
            model_file(Some(Path::new("Qwen2.5-Coder-1.5B"))),
            root.join(DEFAULT_MODEL.file)
        );
        assert_eq!(
            model_file(Some(Path::new("/m/smollm2"))),
            PathBuf::from("/m/smollm2")
        );
        assert_eq!(model_file(Some(Path::new("x.gguf"))), PathBuf::from("x.gguf"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_keeping_a_core_busy_is_not_other_programs_work() {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let spin = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut n = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
            })
        };
        let others = others_busy_cores().expect("/proc/stat and /proc/self/stat on Linux");
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        spin.join().unwrap();
        let cores = cores() as f64;
        // The spinning core is ours: only a machine whose other programs fill more than all
        // but half a core would reach this.
        assert!((0.0..=cores - 0.5).contains(&others), "{others} of {cores} cores");
    }

    #[test]
    fn threads_take_every_core_of_an_idle_machine_and_half_of_a_busy_one() {
        assert_eq!(threads_for(2, Some(0.3)), 2);
        assert_eq!(threads_for(2, None), 2);
        assert_eq!(threads_for(2, Some(1.0)), 1);
        assert_eq!(threads_for(8, Some(3.9)), 8);
        assert_eq!(threads_for(8, Some(12.0)), 4);
        assert_eq!(threads_for(1, Some(5.0)), 1);
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn the_server_gets_its_thread_counts() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (bin, model, log, args) = (
            dir.path().join("llama-server"),
            dir.path().join("m.gguf"),
            dir.path().join("log"),
            dir.path().join("args"),
        );
        std::fs::write(
            &bin,
            format!("#!/bin/sh\necho \"$@\" > {}\nexit 3\n", args.display()),
        )
        .unwrap();
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(&model, "").unwrap();
        let opts = Options {
            binary: &bin,
            model: &model,
            slots: 2,
            ctx: 512,
            threads: 2,
            threads_batch: Some(3),
            log: &log,
        };
        #[cfg(target_os = "linux")]
        // SAFETY: reads this thread's scheduling priority.
        let before = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let e = start(&opts).await.unwrap_err();
        assert!(e.to_string().contains("exited"), "{e}");
        #[cfg(target_os = "linux")]
        {
            // This process stepped aside for its server.
            // SAFETY: as above.
            let after = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
            assert_eq!(after, (before + STEP_ASIDE).min(19));
        }
        let args = std::fs::read_to_string(&args).unwrap();
        assert!(
            args.contains("--parallel 2")
                && args.contains("--threads 2")
                && args.contains("--threads-batch 3"),
            "{args}"
        );
    }

    #[tokio::test]
    async fn missing_binary_names_the_install_command() {
        let dir = tempfile::tempdir().unwrap();
        let (bin, model, log) = (
            dir.path().join("nope"),
            dir.path().join("m.gguf"),
            dir.path().join("log"),
        );
        let opts = Options {
            binary: &bin,
            model: &model,
            slots: 1,
            ctx: 512,
            threads: 1,
            threads_batch: None,
            log: &log,
        };
        let e = start(&opts).await.unwrap_err();
        assert!(e.is_fatal() && e.to_string().contains("install-llm.sh"), "{e}");
    }
}
