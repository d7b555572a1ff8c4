import DiaryVault
import Foundation

/// The CLI side of `RollbackGuard`: warns when a vault opens at a lower index generation than
/// this machine has seen for it (someone may have put an old copy back), and remembers the
/// highest generation seen, at open and again when the command ends (after its writes).
///
/// Never fails a command: the memory is a safety net outside the vault, and a state directory
/// that cannot be written is worth a warning, not a refusal to open the diary.
enum RollbackCheck {
    /// Vaults this process opened, to record their generation after the command's writes.
    nonisolated(unsafe) private static var opened: [Vault] = []

    private static var rollbackGuard: RollbackGuard { RollbackGuard(stateDirectory: RollbackGuard.defaultDirectory()) }

    /// Checks `vault` (just opened) against the remembered generation, then remembers it.
    static func afterOpen(_ vault: Vault) {
        opened.append(vault)
        // A missing or damaged index is rebuilt in memory at generation 0: its counter says
        // nothing about rollback, and other commands already report the damage.
        guard vault.indexState == .ok else { return }
        do {
            if let warning = try rollbackGuard.check(vaultID: vault.id, generation: vault.indexGeneration) {
                Output.warning(warning.description)
                if case .olderThanSeen = warning {
                    Output.hint("if you did not restore an older copy yourself, compare the vault with your backups before writing to it")
                }
            }
            try rollbackGuard.record(vaultID: vault.id, generation: vault.indexGeneration)
        } catch {
            Output.warning("could not check the vault against older copies: \(error)")
        }
    }

    /// Remembers the generation each opened vault reached; called once, as the command ends.
    static func recordOpened() {
        for vault in opened where vault.indexGeneration > 0 {
            try? rollbackGuard.record(vaultID: vault.id, generation: vault.indexGeneration)
        }
        opened.removeAll()
    }
}
