import Dispatch

/// The threads a scan over every entry runs on (`Vault.search`), started before it needs them.
///
/// Why: the first task sent to the global queue makes its thread then, and on a two-core
/// machine that thread was measured starting 0.3–4 ms later (up to a scheduler tick), while
/// the calling thread read and opened the index pages alone. Started while the session still
/// waits on the agent and reads the vault, the thread is there when the pages are read (it
/// then started within 0.06 ms). Nothing runs on it: it only exists sooner.
public enum ScanThreads {
    public static func warmUp() {
        for _ in 1..<EntryBatchMatcher.defaultWorkers {
            DispatchQueue.global(qos: .userInitiated).async {}
        }
    }
}
