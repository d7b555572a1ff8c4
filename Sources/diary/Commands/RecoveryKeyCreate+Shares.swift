import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary recovery-key create --shares N --threshold K [--output DIR]`: the new key split for
/// people one trusts, and never shown whole.
extension RecoveryKeyCreate {
    func validate() throws {
        switch (shares, threshold) {
        case (nil, nil): return
        case (nil, _?): throw ValidationError("--threshold goes with --shares")
        case (_?, nil): throw ValidationError("--shares needs --threshold: how many shares rebuild the key")
        case (let count?, let needed?):
            let maximum = RecoveryShare.maximumCount
            guard 2 <= needed, needed <= count, count <= maximum else {
                throw ValidationError(
                    "need 2 ≤ --threshold ≤ --shares ≤ \(maximum) (got --shares \(count) --threshold \(needed))")
            }
        }
    }

    /// Claims the output directory (or the terminal) first, then asks for the passphrase,
    /// makes the key and its shares, writes or shows them, and only then sets the key.
    func runShares(count: Int, threshold: Int) throws {
        let session = global.session()
        _ = try session.inspect()  // a missing vault fails before a directory is made
        let folder = try output.map { try ShareFolder.prepare($0) }
        let screen = folder == nil ? try ShareScreen.open() : nil
        var written: [String] = []
        let created: RecoverySharesCreated
        do {
            created = try RecoveryKeys(session).createShares(threshold: threshold, count: count, replace: replace) {
                shares in
                if let folder {
                    written = try folder.write(shares, created: Date())
                    if !folder.keepsPermissions(written) { Output.warning(RecoveryWording.openToOthers(folder.path)) }
                } else {
                    screen?.show(shares, created: Date())
                }
            }
        } catch let error as RecoveryKeySetDespiteError {
            folder?.keep()
            let holder = folder.map { "the recovery key split into the shares in \(Printable.escaped($0.path))" }
            throw RecoveryKeyKeptDespiteError(
                holder: holder ?? "the recovery key split into the shares just shown", error: error)
        } catch {
            // Shares of a key that was not set would rebuild nothing: take back what was written.
            if let folder {
                folder.removeWritten(written)
            }
            throw error
        }
        if let folder {
            folder.keep()
            Output.note(
                "wrote \(written.count) shares to \(Printable.escaped(folder.path)): \(written.joined(separator: ", "))"
            )
        }
        Output.note(
            "any \(created.threshold) of the \(created.count) shares rebuild the recovery key (share set \(created.shareSetID)); "
                + "give each to a different person")
        Output.note(RecoveryWording.created(created.status, replaced: replace))
        if let error = created.syncNotTold { throw error }
    }
}
