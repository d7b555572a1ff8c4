import Foundation

extension DiarySandbox {
    /// Runs `diary args` on a pseudo-terminal (`PseudoTerminalTests.driver`) with `env` added,
    /// answering no prompt. Unlike `runOnTerminal`, NO_COLOR is unset unless `env` sets it, so a
    /// test can see whether colour appears. Returns the exit status and what the terminal showed.
    func runOnColourTerminal(_ args: [String], env: [String: String] = [:]) throws -> (status: Int32, shown: String) {
        let driver = root.appendingPathComponent("terminal_driver.py")
        try Data(PseudoTerminalTests.driver.utf8).write(to: driver)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [driver.path, DiarySandbox.binary.path, String(args.count)] + args
        python.environment = fullEnvironment(["NO_COLOR": ""].merging(env) { $1 })
        let out = Pipe()
        python.standardOutput = out
        python.standardError = out
        try python.run()
        let shown = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        return (python.terminationStatus, shown)
    }
}
