import DiaryStore
import Foundation

/// What `RollbackGuard.check` has to say about an opened vault.
public enum RollbackWarning: Sendable, Equatable, CustomStringConvertible {
    /// The vault's index generation is below the highest one this machine has seen for it:
    /// someone may have put an old copy of the vault back (entries written since would be gone).
    case olderThanSeen(vaultID: UUID, seen: UInt64, found: UInt64)
    /// The state file could not be read as written; it was treated as empty, so no rollback
    /// could be detected this time. The next `record` replaces it.
    case stateUnreadable(path: String, detail: String)

    public var description: String {
        switch self {
        case .olderThanSeen(let id, let seen, let found):
            return "vault \(id.uuidString.lowercased()) is older than a copy this machine has seen "
                + "(index generation \(found) < \(seen)): it may be an older copy put back in place"
        case .stateUnreadable(let path, let detail):
            return "the rollback state \(path) is unreadable (\(detail)); it was ignored"
        }
    }
}

/// Remembers, outside any vault, the highest index generation this machine has seen for each
/// vault id, so that opening an older copy of a vault (a rollback) can be noticed.
///
/// The vault itself cannot detect this: an old copy is authentic, every object in it opens.
/// Only a memory kept elsewhere can tell that newer writes existed. The state holds no secrets
/// (a vault id and a counter per line), so it lives in the ordinary per-user state directory,
/// private anyway (directory 0700, file 0600) because vault ids link a user to their vaults.
///
/// File format (`generations`), strict:
/// ```
/// diary-rollback-state 1
/// <vault id, lowercase with dashes> <generation, decimal>
/// ```
public struct RollbackGuard: Sendable {
    static let fileName = "generations"
    static let lockName = "generations.lock"
    static let firstLine = "diary-rollback-state 1"
    /// A state file larger than this is not one we wrote (about 16 000 vaults).
    static let maximumFileSize = 1 << 20

    public let stateDirectory: URL
    var fileURL: URL { stateDirectory.appendingPathComponent(Self.fileName) }

    public init(stateDirectory: URL) {
        self.stateDirectory = stateDirectory
    }

    /// `$XDG_STATE_HOME/diary`, else `$HOME/.local/state/diary` (the XDG base directory rules:
    /// a relative or empty `XDG_STATE_HOME` is ignored).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("diary", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/state/diary", isDirectory: true)
    }

    /// Nil when `generation` is at least what this machine remembers for `vaultID` (or it
    /// remembers nothing); a warning when it is lower, or when the state file is unreadable.
    public func check(vaultID: UUID, generation: UInt64) throws -> RollbackWarning? {
        switch try load() {
        case .unreadable(let detail):
            return .stateUnreadable(path: fileURL.path, detail: detail)
        case .parsed(let seen):
            guard let remembered = seen[vaultID], generation < remembered else { return nil }
            return .olderThanSeen(vaultID: vaultID, seen: remembered, found: generation)
        }
    }

    /// Remembers `generation` for `vaultID` unless a higher one is already remembered.
    ///
    /// Serialised by a lock file, so two `diary` processes recording at once keep the larger
    /// value; the file is replaced atomically (temporary file, fsync, rename, directory fsync),
    /// so a crash leaves the old state or the new one. An unreadable file is replaced.
    public func record(vaultID: UUID, generation: UInt64) throws {
        try storeCall {
            try makeStateDirectory()
            try FileLock(url: stateDirectory.appendingPathComponent(Self.lockName)).withLock(exclusive: true) {
                var seen: [UUID: UInt64] = [:]
                if case .parsed(let current) = try load() { seen = current }
                guard seen[vaultID].map({ generation > $0 }) ?? true else { return }
                seen[vaultID] = generation
                try DurableFile.write(Self.encode(seen), to: fileURL)
            }
        }
    }

    // MARK: The state file

    enum Loaded: Equatable {
        case parsed([UUID: UInt64])
        case unreadable(String)
    }

    func load() throws -> Loaded {
        let bytes: [UInt8]?
        do {
            bytes = try DurableFile.read(fileURL, limit: Self.maximumFileSize)
        } catch StoreError.corrupt(_, let detail) {
            return .unreadable(detail)
        } catch let error as StoreError {
            throw VaultError(error)
        }
        guard let bytes else { return .parsed([:]) }
        do {
            return .parsed(try Self.decode(bytes))
        } catch {
            return .unreadable(error.description)
        }
    }

    static func encode(_ seen: [UUID: UInt64]) -> [UInt8] {
        var text = firstLine + "\n"
        for (id, generation) in seen.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            text += "\(id.uuidString.lowercased()) \(generation)\n"
        }
        return Array(text.utf8)
    }

    /// Parses exactly what `encode` writes; anything else is refused rather than guessed at.
    static func decode(_ bytes: [UInt8]) throws(FormatError) -> [UUID: UInt64] {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        guard text.hasSuffix("\n") else { throw .truncated }
        var lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(firstLine) else { throw .invalidField("first line") }
        lines.removeFirst()
        var seen: [UUID: UInt64] = [:]
        for (n, line) in lines.enumerated() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 2,
                  let id = UUID(uuidString: String(fields[0])), id.uuidString.lowercased() == fields[0],
                  fields[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                  let generation = UInt64(fields[1]), String(generation) == fields[1]
            else { throw .invalidField("line \(n + 2)") }
            guard seen.updateValue(generation, forKey: id) == nil else { throw .invalidField("line \(n + 2)") }
        }
        return seen
    }

    /// Creates the parents as needed and the state directory itself with mode 0700.
    private func makeStateDirectory() throws {
        let parent = stateDirectory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io(path: parent.path, detail: "cannot create directory")
        }
        try DurableFile.makeDirectory(stateDirectory)
    }
}
