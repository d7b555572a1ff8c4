import Foundation
import XCTest

@testable import DiaryApp

/// What the config file may be on disk: a symbolic link is written through, never replaced,
/// and a file that is not a regular one is refused before it is read.
final class ConfigFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("diary-configfile-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func setColor(_ file: ConfigFile) throws {
        try file.update { (config: inout DiaryConfig) throws(ConfigError) in try config.set(.key(.color), to: "never") }
    }

    func testALinkedFileIsWrittenThroughItsChainOfLinksKeepingItsMode() throws {
        let dotfiles = directory.appendingPathComponent("dotfiles")
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let real = dotfiles.appendingPathComponent("diary.toml")
        try Data("store = \"files\"\n".utf8).write(to: real)
        chmod(real.path, 0o644)
        // config.toml → middle.toml (relative) → dotfiles/diary.toml (absolute).
        let link = directory.appendingPathComponent("config.toml")
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("middle.toml").path,
            withDestinationPath: real.path)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "middle.toml")
        try setColor(ConfigFile(url: link))

        for name in ["config.toml", "middle.toml"] {
            let type = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[
                .type]
            XCTAssertEqual(type as? FileAttributeType, .typeSymbolicLink, name)
        }
        let config = try ConfigFile(url: real).load()
        XCTAssertEqual(config.color, .never)
        XCTAssertEqual(config.store, .files)
        let mode = try FileManager.default.attributesOfItem(atPath: real.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o644)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dotfiles.path), ["diary.toml"])
    }

    func testALinkToNothingIsRefusedAndLeftAsItIs() throws {
        let link = directory.appendingPathComponent("config.toml")
        let missing = directory.appendingPathComponent("gone.toml")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: missing.path)
        XCTAssertThrowsError(try setColor(ConfigFile(url: link))) {
            XCTAssertEqual($0 as? ConfigError, .danglingLink(path: link.path, target: missing.path))
        }
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), missing.path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))
    }

    func testAFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let fifo = directory.appendingPathComponent("config.toml")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        // Before the fix this load blocked in open(2) forever.
        XCTAssertThrowsError(try ConfigFile(url: fifo).load()) {
            XCTAssertEqual($0 as? ConfigError, .notRegularFile(path: fifo.path))
        }
        XCTAssertThrowsError(try setColor(ConfigFile(url: fifo))) {
            XCTAssertEqual($0 as? ConfigError, .notRegularFile(path: fifo.path))
        }
    }

    func testADirectoryIsRefusedAsNotARegularFile() throws {
        XCTAssertThrowsError(try ConfigFile(url: directory).load()) {
            XCTAssertEqual($0 as? ConfigError, .notRegularFile(path: self.directory.path))
        }
    }
}
