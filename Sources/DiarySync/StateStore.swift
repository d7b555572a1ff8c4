import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Reads and writes this machine's sealed sync state: `main` and one file per index page of
/// entry heads, each sealed under the state key, so a sync reads and writes only the pages its
/// changes touch.
final class StateStore {
    static let domain = Array("diary.sync.state.v1".utf8)
    let directory: URL
    let vaultID: UUID
    var key: SyncKey
    private var pages: [Int: [UUID: EntryHeads]] = [:]
    private(set) var dirtyPages: Set<Int> = []

    init(directory: URL, vaultID: UUID, key: SyncKey) {
        self.directory = directory
        self.vaultID = vaultID
        self.key = key
    }

    var mainURL: URL { directory.appendingPathComponent("state") }
    func pageURL(_ page: Int) -> URL { directory.appendingPathComponent(String(format: "heads-%02d", page)) }

    var exists: Bool { FileManager.default.fileExists(atPath: mainURL.path) }

    func readMain() throws -> SyncMain {
        guard let bytes = try open("state", mainURL) else { throw SyncError.notSetUp }
        return try StateCodec.decode(bytes)
    }

    func writeMain(_ main: SyncMain) throws {
        var plaintext = StateCodec.encode(main)
        try seal(&plaintext, name: "state", to: mainURL)
    }

    func entry(_ id: UUID) throws -> EntryHeads? { try page(Vault.indexPage(of: id))[id] }

    func setEntry(_ id: UUID, _ heads: EntryHeads?) throws {
        let number = Vault.indexPage(of: id)
        var p = try page(number)
        p[id] = heads
        pages[number] = p
        dirtyPages.insert(number)
    }

    func page(_ number: Int) throws -> [UUID: EntryHeads] {
        if let cached = pages[number] { return cached }
        let name = String(format: "heads-%02d", number)
        let loaded = try open(name, pageURL(number)).map(StateCodec.decodePage) ?? [:]
        pages[number] = loaded
        return loaded
    }

    /// Writes every changed page (before `main`, which names what they hold).
    func flushPages() throws {
        for number in dirtyPages.sorted() {
            var plaintext = StateCodec.encode(page: pages[number] ?? [:])
            try seal(&plaintext, name: String(format: "heads-%02d", number), to: pageURL(number))
        }
        dirtyPages = []
    }

    /// Re-seals every page and `main` under `newKey` (after a key rotation).
    func reseal(_ main: SyncMain, under newKey: SyncKey) throws {
        for number in 0..<Vault.indexPageCount { _ = try page(number) }
        key = newKey
        dirtyPages = Set(0..<Vault.indexPageCount)
        try flushPages()
        try writeMain(main)
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
        let box = try XChaCha20Poly1305.seal(padded, key: key.stateKey, associatedData: associatedData(name))
        try DurableFile.write(key.id + box.nonce + box.ciphertext, to: url)
    }

    private func open(_ name: String, _ url: URL) throws -> [UInt8]? {
        guard let file = try DurableFile.read(url, limit: 512 << 20) else { return nil }
        let nonceEnd = 16 + XChaCha20Poly1305.nonceByteCount
        guard file.count > nonceEnd, Array(file[0..<16]) == key.id else { throw SyncError.stateUnreadable(url.path) }
        do {
            var padded = try XChaCha20Poly1305.open(
                Array(file[nonceEnd...]), key: key.stateKey, nonce: Array(file[16..<nonceEnd]),
                associatedData: associatedData(name))
            defer { secureZero(&padded) }
            return try LengthPadding.unpad(padded)
        } catch {
            throw SyncError.stateUnreadable(url.path)
        }
    }
}
