import RxSwift
