import DiaryVault
import Foundation

/// The files of a folder remote's capture inbox (`RemoteLayout+Inbox`), reached as every other
/// file of the remote is, without following a link (`RemoteTree`). Anyone holding a capture
/// credential writes here, so nothing in it is trusted: names are parsed strictly, sizes are
/// checked before a byte is read, and what is not an item is reported and left alone.
struct RemoteInbox {
    let tree: RemoteTree

    /// One item file found in the inbox.
    struct Item: Equatable {
        var name: String
        var path: String
        var device: UUID
        var counter: UInt64
    }

    /// What the inbox holds: items, and names that are not one (reported, left alone).
    struct Listing: Equatable {
        var items: [Item] = []
        var unexpected: [String] = []
    }

    /// The items waiting in `inbox/`, by name. Hidden names (writes in progress: capture's
    /// `.tmp-…`, a file-sync tool's own temporaries) and the `rejected` folder are passed over;
    /// links, special files, other folders and other names are unexpected.
    func list() -> Listing {
        var found = Listing()
        let listing: RemoteTree.Listing
        do {
            listing = try tree.listing(RemoteLayout.inboxDirectory)
        } catch {
            // `inbox` is a file or a link at the top: `LogScanner` refuses a link there.
            return Listing(unexpected: [RemoteLayout.inboxDirectory])
        }
        for name in listing.files where !name.hasPrefix(".") {
            let path = "\(RemoteLayout.inboxDirectory)/\(name)"
            guard let (device, counter) = RemoteLayout.item(fromName: name) else {
                found.unexpected.append(path)
                continue
            }
            found.items.append(Item(name: name, path: path, device: device, counter: counter))
        }
        let rejected = RemoteLayout.rejectedDirectory.split(separator: "/").last.map(String.init)
        for name in listing.folders where name != rejected && !name.hasPrefix(".") {
            found.unexpected.append("inbox/\(name)")
        }
        for name in listing.unfollowed.keys.sorted() where !name.hasPrefix(".") {
            found.unexpected.append("inbox/\(name)")
        }
        return found
    }

    /// The bytes of an item, nil when it is gone, is not a regular file, or is larger than
    /// `limit` (checked before reading).
    func read(_ item: Item, limit: Int) -> [UInt8]? { tree.readIfPossible(item.path, limit: limit) }

    /// Removes an item once what it brought is published; false when it could not be (gone
    /// already counts as removed).
    func remove(_ item: Item) -> Bool { tree.remove(item.path) || tree.stamp(item.path) == nil }

    /// Moves an item into `inbox/rejected/` under its own name (with `.2`, `.3`, … when that is
    /// taken by other bytes). An item whose bytes are those of a file there under one of these
    /// names is removed instead, and that file's path returned: a host that puts one item back
    /// before every sync does not fill the folder with copies. Returns the path it now has, or
    /// nil when it could not be moved (it stays).
    func moveAside(_ item: Item) -> String? {
        guard (try? tree.makeFolder(RemoteLayout.rejectedDirectory)) != nil else { return nil }
        lazy var bytes = tree.readIfPossible(item.path, limit: CaptureItem.maximumBytes)
        for attempt in 1...100 {
            let name = attempt == 1 ? item.name : "\(item.name).\(attempt)"
            let destination = "\(RemoteLayout.rejectedDirectory)/\(name)"
            guard let there = tree.stamp(destination) else {
                return (try? tree.move(item.path, to: destination)) != nil ? destination : nil
            }
            if let bytes, there.size == UInt64(bytes.count),
                tree.readIfPossible(destination, limit: bytes.count) == bytes
            {
                return remove(item) ? destination : nil
            }
        }
        return nil
    }
}
