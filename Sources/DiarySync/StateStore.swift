import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Reads and writes this machine's sealed sync state, each file sealed under the state key:
///
/// - `state`: the machine's own record (`SyncMain`);
/// - `heads-XXX`: the heads of the entries whose ids start with those ten bits (1024 small
///   files: a change rewrites about a thousandth of the diary's heads, and a join or a first
///   sync, which writes them all, pays one fsync per file);
/// - `seen-NN`: per index page, the id and seal tag of every row as sync last saw it, so a
///   changed index page is compared row by row without reading any entry's heads;
/// - `deletions`: the entries deleted here on purpose since the last sync (`DeletionJournal`):
///   only those are published as deletions.
///
/// A sync reads and writes only the files its changes touch.
final class StateStore {
    static let domain = Array("diary.sync.state.v2".utf8)
    static let keyIDLength = 32
    static let headsPageCount = 1024
    let directory: URL
    let vaultID: UUID
    /// The key new files are sealed under.
    var key: SyncKey
    /// Other keys a file may be sealed under: a reseal cut short leaves files under both.
    var alsoOpensWith: [SyncKey] = []
    private var pages: [Int: [UUID: EntryHeads]] = [:]
    private var dirtyPages: Set<Int> = []
    private var seen: [Int: [UUID: [UInt8]]] = [:]
    private var dirtySeen: Set<Int> = []

    init(directory: URL, vaultID: UUID, key: SyncKey) {
        self.directory = directory
        self.vaultID = vaultID
        self.key = key
    }

    var mainURL: URL { directory.appendingPathComponent("state") }
    static let deletionsName = "deletions"
    static func headsName(_ page: Int) -> String { String(format: "heads-%03x", page) }
    static func seenName(_ page: Int) -> String { String(format: "seen-%02d", page) }

    /// The heads file an entry belongs to: the top ten bits of its id.
    static func headsPage(of id: UUID) -> Int { Int(id.uuid.0) << 2 | Int(id.uuid.1 >> 6) }

    var exists: Bool { FileManager.default.fileExists(atPath: mainURL.path) }

    /// Which of `keys` sealed the state (each file starts with its key's id), so a caller that
    /// may have been interrupted on either side of a reseal opens it with the right one.
    func keyInUse(among keys: [SyncKey]) throws -> SyncKey? {
        guard let file = try DurableFile.read(mainURL, limit: 512 << 20), file.count >= Self.keyIDLength else {
            return nil
        }
        return keys.first { $0.id == Array(file[0..<Self.keyIDLength]) }
    }

    func readMain() throws -> SyncMain {
        guard let bytes = try open("state", mainURL) else { throw SyncError.notSetUp }
        return try StateCodec.decode(bytes)
    }

    func writeMain(_ main: SyncMain) throws {
        var plaintext = StateCodec.encode(main)
        try seal(&plaintext, name: "state", to: mainURL)
    }

    func entry(_ id: UUID) throws -> EntryHeads? { try page(Self.headsPage(of: id))[id] }

    func setEntry(_ id: UUID, _ heads: EntryHeads?) throws {
        let number = Self.headsPage(of: id)
        var p = try page(number)
        p[id] = heads
        pages[number] = p
        dirtyPages.insert(number)
    }

    private func page(_ number: Int) throws -> [UUID: EntryHeads] {
        if let cached = pages[number] { return cached }
        let name = Self.headsName(number)
        let loaded = try open(name, directory.appendingPathComponent(name)).map(StateCodec.decodePage) ?? [:]
        pages[number] = loaded
        return loaded
    }

    /// The rows of index page `number` as sync last saw them: id and seal tag.
    func seenRows(onIndexPage number: Int) throws -> [UUID: [UInt8]] {
        if let cached = seen[number] { return cached }
        let name = Self.seenName(number)
        let loaded = try open(name, directory.appendingPathComponent(name)).map(StateCodec.decodeSeen) ?? [:]
        seen[number] = loaded
        return loaded
    }

    func setSeenRows(_ rows: [UUID: [UInt8]], onIndexPage number: Int) {
        seen[number] = rows
        dirtySeen.insert(number)
    }

    /// The entries deleted here on purpose and not yet published as deletions.
    func deletions() throws -> Set<UUID> {
        let url = directory.appendingPathComponent(Self.deletionsName)
        return try open(Self.deletionsName, url).map(DeletionJournal.decode) ?? []
    }

    /// Replaces the deletion journal (an empty one is removed).
    func setDeletions(_ ids: Set<UUID>) throws {
        let url = directory.appendingPathComponent(Self.deletionsName)
        guard !ids.isEmpty else {
            // A removal a crash undoes leaves ids already published: the next sync drops them.
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            return
        }
        var plaintext = DeletionJournal.encode(ids)
        try seal(&plaintext, name: Self.deletionsName, to: url)
    }

    /// Writes every changed file (before `main`, which names what they hold).
    func flushPages() throws {
        for number in dirtyPages {
            var plaintext = StateCodec.encode(page: pages[number] ?? [:])
            try seal(
                &plaintext, name: Self.headsName(number), to: directory.appendingPathComponent(Self.headsName(number)))
        }
        for number in dirtySeen {
            var plaintext = StateCodec.encode(seen: seen[number] ?? [:])
            try seal(
                &plaintext, name: Self.seenName(number), to: directory.appendingPathComponent(Self.seenName(number)))
        }
        dirtyPages = []
        dirtySeen = []
    }

    /// Re-seals the files as they are on disk under `newKey`, and makes it the key from now
    /// on. What this sync changed in memory is not written here (`flushPages` and `writeMain`
    /// do, later, under the new key): a sync cut short after this must find the state as it
    /// was before the sync, or it would count records as taken in that never reached the
    /// vault.
    func resealOnDisk(under newKey: SyncKey) throws {
        let names =
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix("heads-") || $0.hasPrefix("seen-") || $0 == Self.deletionsName }.sorted() + ["state"]
        alsoOpensWith.append(key)
        key = newKey
        for name in names {
            let url = directory.appendingPathComponent(name)
            guard var plaintext = try open(name, url) else { continue }
            try seal(&plaintext, name: name, to: url)
        }
    }

    private func associatedData(_ name: String) -> [UInt8] {
        var w = ByteWriter()
        w.append(Self.domain)
        w.uuid(vaultID)
        w.string16(name)
        return w.bytes
    }

    /// Seals and writes `plaintext`, then zeroes it (it holds keys and texts). In place: a
    /// copy would leave the caller's buffer unzeroed.
    private func seal(_ plaintext: inout [UInt8], name: String, to url: URL) throws {
        defer { secureZero(&plaintext) }
        var padded = try LengthPadding.pad(plaintext)
        defer { secureZero(&padded) }
        guard let stateKey = key.stateKey else { throw SyncError.stateUnreadable(path: url.path) }
        let box = try XChaCha20Poly1305.seal(padded, key: stateKey, associatedData: associatedData(name))
        try DurableFile.write(key.id + box.nonce + box.ciphertext, to: url)
    }

    private func open(_ name: String, _ url: URL) throws -> [UInt8]? {
        guard let file = try DurableFile.read(url, limit: 512 << 20) else { return nil }
        let nonceEnd = Self.keyIDLength + XChaCha20Poly1305.nonceByteCount
        guard file.count > nonceEnd,
            let sealer = ([key] + alsoOpensWith).first(where: { $0.id == Array(file[0..<Self.keyIDLength]) }),
            let stateKey = sealer.stateKey
        else {
            if file.count >= 16, Array(file[0..<16]) == key.formerID { throw SyncError.stateOfFormat1 }
            throw SyncError.stateUnreadable(path: url.path)
        }
        do {
            var padded = try XChaCha20Poly1305.open(
                Array(file[nonceEnd...]), key: stateKey, nonce: Array(file[Self.keyIDLength..<nonceEnd]),
                associatedData: associatedData(name))
            defer { secureZero(&padded) }
            return try LengthPadding.unpad(padded)
        } catch {
            throw SyncError.stateUnreadable(path: url.path)
        }
    }
}
