// Replaced by the robustness-test work: a child process that the crash and concurrency tests
// drive and kill.
print("vault-stress-child")
