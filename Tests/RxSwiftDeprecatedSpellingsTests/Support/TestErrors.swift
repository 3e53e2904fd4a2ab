struct TestError: Error, Equatable {
    var code = 0
}

let testError = TestError()
