import Foundation

extension LogScanner {
    /// Links and special files where the remote holds only plain files and folders (the top,
    /// `log/` and each log, `chain/`, `keys/`, `attachments/` and each machine's folder
    /// there): never followed nor opened, and refused, since no machine writes them
    /// (docs/FORMAT.md §12.7). So is a folder inside a machine's attachment folder.
    func refuseUnfollowed(into outcome: inout Outcome) {
        var folders = [
            "", RemoteLayout.logDirectory, RemoteLayout.chainDirectory, RemoteLayout.keysDirectory,
            RemoteLayout.attachmentsDirectory,
        ]
        folders += tree.logFolders().map { "\(RemoteLayout.logDirectory)/\($0)" }
        let objectFolders = tree.list(RemoteLayout.attachmentsDirectory).map {
            "\(RemoteLayout.attachmentsDirectory)/\($0)"
        }
        for folder in folders + objectFolders {
            guard let listing = try? tree.listing(folder) else { continue }
            var planted = listing.unfollowed
            // A machine's attachment folder holds only object files: a folder there (say, where
            // an object's file should be) is planted as a link is, not passed over.
            if objectFolders.contains(folder) { for name in listing.folders { planted[name] = .folder } }
            for (name, kind) in planted.sorted(by: { $0.key < $1.key }) {
                outcome.findings.append(.notAPlainFile(path: folder.isEmpty ? name : "\(folder)/\(name)", kind: kind))
            }
        }
    }
}
