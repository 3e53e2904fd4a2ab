// AsyncStream has no multicast: one stream per consumer, each consumer a task, as an application
// would write it. `run` yields, finishes the stream and waits until the consumer has seen everything,
// so the time includes the hand-over to the other thread.

func streamOneConsumer() -> Prepared {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let consumer = Task {
        var total = 0
        for await element in stream { total &+= element }
        return total
    }
    return .async(run: { count in
        for element in 0..<count { continuation.yield(element) }
        continuation.finish()
        return await consumer.value
    })
}

func streamTwoConsumers() -> Prepared {
    let (first, firstContinuation) = AsyncStream<Int>.makeStream()
    let (second, secondContinuation) = AsyncStream<Int>.makeStream()
    let firstConsumer = Task {
        var total = 0
        for await element in first { total &+= element }
        return total
    }
    let secondConsumer = Task {
        var total = 0
        for await element in second { total &+= element }
        return total
    }
    return .async(run: { count in
        for element in 0..<count {
            firstContinuation.yield(element)
            secondContinuation.yield(element)
        }
        firstContinuation.finish()
        secondContinuation.finish()
        return await firstConsumer.value &+ secondConsumer.value
    })
}

func streamMapFilter() -> Prepared {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let consumer = Task {
        var total = 0
        for await element in stream.map(increment).filter(isEven) { total &+= element }
        return total
    }
    return .async(run: { count in
        for element in 0..<count { continuation.yield(element) }
        continuation.finish()
        return await consumer.value
    })
}

func streamTwelveOperators() -> Prepared {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let consumer = Task {
        let chain =
            stream
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
        var total = 0
        for await element in chain { total &+= element }
        return total
    }
    return .async(run: { count in
        for element in 0..<count { continuation.yield(element) }
        continuation.finish()
        return await consumer.value
    })
}
