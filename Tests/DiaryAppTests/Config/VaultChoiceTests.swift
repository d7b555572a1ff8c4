import Foundation
import XCTest

@testable import DiaryApp

/// Which vault a command uses: --vault or -j, then $DIARY_VAULT, then the default journal,
/// then the default place.
final class VaultChoiceTests: XCTestCase {
    private let home = "/home/me"

    private func environment(_ variables: [String: String] = [:]) -> DiaryEnvironment {
        DiaryEnvironment(["HOME": home, "XDG_DATA_HOME": "/data"].merging(variables) { $1 })
    }

    private func config(default name: String? = nil) throws -> DiaryConfig {
        var config = DiaryConfig()
        try config.addJournal("work", path: "/srv/work")
        try config.addJournal("home", path: "~/home-diary")
        if let name { try config.setDefaultJournal(name) }
        return config
    }

    private func choose(
        vault: String? = nil, journal: String? = nil, env: [String: String] = [:], default name: String? = nil
    ) throws -> VaultChoice {
        try VaultChoice.resolve(
            vaultOption: vault, journalOption: journal, environment: environment(env), config: config(default: name))
    }

    func testTheOrderIsOptionThenEnvironmentThenDefaultJournalThenDefaultPlace() throws {
        let everything = ["DIARY_VAULT": "/env"]
        XCTAssertEqual(try choose(vault: "/opt", env: everything, default: "work").directory.path, "/opt")
        XCTAssertEqual(
            try choose(journal: "home", env: everything, default: "work").directory.path, "/home/me/home-diary")
        XCTAssertEqual(try choose(journal: "home", env: everything).source, .journalOption("home"))
        XCTAssertEqual(try choose(env: everything, default: "work").directory.path, "/env")
        XCTAssertEqual(try choose(env: everything).source, .environment)
        XCTAssertEqual(try choose(default: "work").directory.path, "/srv/work")
        XCTAssertEqual(try choose(default: "work").journal, "work")
        XCTAssertEqual(try choose().directory.path, "/data/diary")
        XCTAssertEqual(try choose().source, .defaultPlace)
        // An empty DIARY_VAULT is unset, as before.
        XCTAssertEqual(try choose(env: ["DIARY_VAULT": ""], default: "work").directory.path, "/srv/work")
    }

    func testVaultAndJournalTogetherAreRefused() {
        XCTAssertThrowsError(try choose(vault: "/x", journal: "work")) {
            XCTAssertEqual($0 as? ConfigError, .vaultAndJournal)
        }
    }

    func testAnUnknownJournalListsTheKnownNames() {
        XCTAssertThrowsError(try choose(journal: "wrok")) {
            XCTAssertEqual($0 as? ConfigError, .unknownJournal(name: "wrok", known: ["home", "work"]))
        }
    }

    func testANewVaultIsRegisteredUnderANewName() throws {
        let config = try config()
        let env = environment(["DIARY_VAULT": "/env"])
        let given = try VaultChoice.forNewVault(path: "~/p", journalOption: "side", environment: env, config: config)
        XCTAssertEqual(given.directory.path, "/home/me/p")
        XCTAssertEqual(given.register, "side")
        let beside = try VaultChoice.forNewVault(path: nil, journalOption: "side", environment: env, config: config)
        XCTAssertEqual(beside.directory.path, "/data/diary-side")
        let known = try VaultChoice.forNewVault(path: nil, journalOption: "work", environment: env, config: config)
        XCTAssertEqual(known.directory.path, "/srv/work")
        XCTAssertNil(known.register)
        XCTAssertThrowsError(
            try VaultChoice.forNewVault(path: "/elsewhere", journalOption: "work", environment: env, config: config)
        ) { XCTAssertEqual($0 as? ConfigError, .journalExists(name: "work", path: "/srv/work")) }
        XCTAssertThrowsError(
            try VaultChoice.forNewVault(path: nil, journalOption: "a.b", environment: env, config: config)
        ) { XCTAssertEqual($0 as? ConfigError, .badJournalName("a.b")) }
        let plain = try VaultChoice.forNewVault(path: nil, journalOption: nil, environment: env, config: config)
        XCTAssertEqual(plain.directory.path, "/env")
        XCTAssertNil(plain.register)
    }

    func testTheConfigFileFollowsXDGConfigHome() {
        XCTAssertEqual(environment().configFile.path, "/home/me/.config/diary/config.toml")
        XCTAssertEqual(environment(["XDG_CONFIG_HOME": "/cfg"]).configFile.path, "/cfg/diary/config.toml")
        XCTAssertEqual(environment(["XDG_CONFIG_HOME": "rel"]).configFile.path, "/home/me/.config/diary/config.toml")
    }

    func testAJournalIsNamedByItsPath() throws {
        let config = try config()
        let env = environment()
        XCTAssertEqual(config.journalName(of: URL(fileURLWithPath: "/home/me/home-diary/"), environment: env), "home")
        XCTAssertNil(config.journalName(of: URL(fileURLWithPath: "/srv"), environment: env))
    }
}
