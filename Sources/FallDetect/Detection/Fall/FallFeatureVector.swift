/// A candidate's measurements as one fixed-size value: no allocation per candidate, and a model
/// reads entries by index. Entries past `FallCandidate.featureNames.count` are zero.
public typealias FallFeatureVector = SIMD16<Float>
