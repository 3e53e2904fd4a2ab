import RxBenchmarkScenarios

// Usage: RxInstructionCount list
//        RxInstructionCount <index> <count>
// Prepares workload <index> (see `list`) and runs it once with <count> elements or subscriptions.
// Run it under callgrind with two counts; the difference of the totals divided by the difference of
// the counts is the cost per element, free of start-up and of first-use costs.

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "list" {
    for (index, workload) in allWorkloads.enumerated() {
        print("\(index)\t\(workload.count)\t\(workload.scenario)\t\(workload.flavour.rawValue)")
    }
} else if arguments.count == 3, let index = Int(arguments[1]), allWorkloads.indices.contains(index),
    let count = Int(arguments[2])
{
    switch allWorkloads[index].prepare() {
    case .sync(let run, let tearDown):
        print(run(count))
        tearDown()
    case .async(let run):
        print(await run(count))
    }
} else {
    print("usage: RxInstructionCount list | <index> <count>")
}
