import Foundation

extension LogScanner {
    /// Links and special files where the remote holds only plain files and folders (the top,
    /// `log/` and each log, `chain/`, `keys/`, `attachments/` and each machine's folder
    /// there): never followed nor opened, and refused, since no machine writes them
    /// (docs/FORMAT.md §12.7).
    func refuseUnfollowed(into outcome: inout Outcome) {
        var folders = [
            "", RemoteLayout.logDirectory, RemoteLayout.chainDirectory, RemoteLayout.keysDirectory,
            RemoteLayout.attachmentsDirectory,
        ]
        folders += tree.logFolders().map { "\(RemoteLayout.logDirectory)/\($0)" }
        folders += tree.list(RemoteLayout.attachmentsDirectory).map { "\(RemoteLayout.attachmentsDirectory)/\($0)" }
        for folder in folders {
            guard let listing = try? tree.listing(folder) else { continue }
            for (name, kind) in listing.unfollowed.sorted(by: { $0.key < $1.key }) {
                outcome.findings.append(.notAPlainFile(path: folder.isEmpty ? name : "\(folder)/\(name)", kind: kind))
            }
        }
    }
}
