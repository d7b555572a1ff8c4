import Foundation

/// Telling a person how to reach a vault made somewhere diary does not look by default
/// (`sync join --to`, `restore --to`): without it the next `diary list` says "no vault" and
/// points at `diary init`, which would make a second, empty vault.
enum VaultPlace {
    /// Says how to use the vault at `made` when it is not `looked` (where the commands look:
    /// --vault or -j, else $DIARY_VAULT, else the default journal or place); says nothing when
    /// they are the same.
    static func sayHowToUse(_ made: URL, defaultVault looked: URL) {
        guard made.standardizedFileURL.path != looked.standardizedFileURL.path else { return }
        let path = shellQuoted(made.standardizedFileURL.path)
        Output.note(
            "diary looks for the vault at \(looked.path); to use this one, pass --vault \(path) to each command,")
        Output.note("or set it once: export DIARY_VAULT=\(path) (in your shell's profile to keep it),")
        Output.note("or give it a name: diary journal add NAME \(path), then -j NAME on each command")
    }

    /// `path` as a shell reads it back: as it is when it holds only safe characters, else in
    /// single quotes.
    static func shellQuoted(_ path: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%")
        if !path.isEmpty, path.allSatisfy(safe.contains) { return path }
        return "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
