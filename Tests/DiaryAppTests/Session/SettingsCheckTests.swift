import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// The settings every command checks: a vault reached through a symbolic link is judged by the
/// directory the link leads to (a link's own mode is always 0777), and that directory still is.
final class SettingsCheckTests: VaultTestCase {
    private func tooOpen(_ findings: [AppEvent]) -> [URL] {
        findings.compactMap { if case .vaultFileTooOpen(_, let vault) = $0 { return vault } else { return nil } }
    }

    func testAVaultThroughASymbolicLinkIsJudgedByWhereTheLinkLeads() throws {
        let vault = try makeVault(.sqlite, name: "target")
        let link = path("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: vault.directory)
        let info = try Vault.inspect(at: link)
        XCTAssertEqual(tooOpen(SettingsCheck.findings(info, at: link, testKDF: true)), [])

        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: vault.directory.path)
        let found = tooOpen(SettingsCheck.findings(info, at: link, testKDF: true))
        XCTAssertEqual(found.map(\.path), [vault.directory.resolvingSymlinksInPath().path])
    }
}
