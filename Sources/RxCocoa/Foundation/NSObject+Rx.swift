import Foundation
import RxSwift

// Every NSObject has the `.rx` namespace, as with RxSwift on Darwin (where RxSwift itself declares
// this; swift-rx's RxSwift does not import Foundation, so RxCocoa does).
extension NSObject: ReactiveCompatible {}
