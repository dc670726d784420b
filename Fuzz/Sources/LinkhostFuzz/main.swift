import CLibFuzzer
import Glibc

// `linkhost-fuzz TARGET [libFuzzer options and corpus folders]` runs one target under libFuzzer;
// `linkhost-fuzz list` prints the targets. The target's name is taken off the command line before
// libFuzzer sees it and kept in the environment, so the processes libFuzzer starts itself (fork
// and merge modes) run the same target. scripts/fuzz is the usual way in.
var arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "list" {
    for target in FuzzTargets.all { print("\(target.name)\t\(target.maximumLength)\t\(target.summary)") }
    exit(0)
}
if arguments.count > 1, !arguments[1].hasPrefix("-"), FuzzTargets.named(arguments[1]) != nil {
    setenv(FuzzTargets.environmentKey, arguments[1], 1)
    arguments.remove(at: 1)
}
guard let selected = FuzzTargets.selected else {
    let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
    FuzzReport.write("linkhost-fuzz: name a target first (\(names)), or set \(FuzzTargets.environmentKey)\n")
    exit(2)
}
if !arguments.contains(where: { $0.hasPrefix("-max_len=") }) { arguments.append("-max_len=\(selected.maximumLength)") }
var argumentCount = CInt(arguments.count)
var argumentVector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = UnsafeMutablePointer.allocate(capacity: arguments.count + 1)
for (index, argument) in arguments.enumerated() { argumentVector?[index] = strdup(argument) }
argumentVector?[arguments.count] = nil
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentVector, FuzzEntry.testOneInput))
