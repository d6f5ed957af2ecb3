//! Output into a closed pipe (`kernel-bench | head`) ends the program quietly, as it
//! does a C tool's: Rust's runtime ignores `SIGPIPE`, so without this the next `println!`
//! panics with a backtrace.

/// Restores the default action of `SIGPIPE` (termination, no message). Call first in
/// `main`.
pub fn end_quietly() {
    #[cfg(unix)]
    {
        unsafe extern "C" {
            fn signal(signum: std::ffi::c_int, handler: usize) -> usize;
        }
        // SIGPIPE is 13 and SIG_DFL is 0 on every Unix Rust supports here (Linux, macOS).
        // SAFETY: sets a signal disposition before any other thread exists; the previous
        // handler, returned, is not needed.
        unsafe { signal(13, 0) };
    }
}
