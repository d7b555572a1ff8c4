import DiaryVault
import Foundation

/// Warns when a vault is opened at an older index generation than this machine has seen, and
/// remembers the newest generation of every vault the command touched.
///
/// Why: someone with write access to the vault (a sync service, a stolen laptop returned) can
/// put back an old copy; every object in it authenticates, so only memory outside the vault
/// can tell. The state (vault id and a number) holds no secret; see `RollbackGuard`.
enum RollbackWatch {
    // One command runs on one thread; these are touched only from it.
    nonisolated(unsafe) private static var watched: [Vault] = []
    private static let guardian = RollbackGuard(stateDirectory: RollbackGuard.defaultDirectory())

    /// Checks `vault` against what this machine remembers and watches it until exit.
    static func opened(_ vault: Vault) {
        watched.append(vault)
        // A missing or damaged index was rebuilt in memory without its counter: it says
        // nothing about rollback (and `list` already reports the damage).
        guard vault.indexState == .ok else { return }
        do {
            if let warning = try guardian.check(vaultID: vault.id, generation: vault.indexGeneration) {
                Output.warning("\(warning)")
                if case .olderThanSeen = warning {
                    Output.hint("if you did not restore a backup, check where this vault comes from: entries written since that copy are missing")
                }
            }
        } catch {
            Output.warning("could not check the vault against older copies: \(error)")
        }
    }

    /// Watches a vault this command created or restored (nothing to check yet).
    static func created(_ vault: Vault) { watched.append(vault) }

    /// Records the generation each watched vault ended at. Called once as the command exits,
    /// on success and on failure (a failed command may still have written).
    ///
    /// The vaults are then released, which closes their stores and zeroes their keys.
    static func recordAll() {
        for vault in watched {
            try? guardian.record(vaultID: vault.id, generation: vault.indexGeneration)
        }
        watched.removeAll()
    }
}
