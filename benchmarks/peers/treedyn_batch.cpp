// treedyn's batched dynamics as a peer (peer_batch.hpp), on one thread, as its users call them:
//   "treedyn"        BatchRunner<S>(model, 1).aba(Q, V, TAU, QDD) / .rnea(Q, V, A, TAU): one state at a time
//   "treedyn-lanes"  LaneBatchRunner<S>(model, 1), the same calls with native_lane_width<S> states in the SIMD
//                    lanes of each kernel call (this build's -march=native decides W)
// The model is treedyn_model's (treedyn_peer.hpp); the float model is its cast, as in treedyn_peer.cpp.
#include <stdexcept>
#include <string>
#include <utility>

#include "peer_batch.hpp"
#include "treedyn_peer.hpp"
#include "treedyn/parallel/batch.hpp"
#include "treedyn/parallel/lane_batch.hpp"

namespace treedyn::peers {

namespace {

template <class S, class Runner>
class TreedynBatch final : public BatchPeer<S> {
 public:
  TreedynBatch(Model<S> model, std::string library)
      : model_(std::move(model)), runner_(model_, 1), library_(std::move(library)) {}

  std::string library() const override { return library_; }

  void set_states(const MatX<S>& Q, const MatX<S>& V, const MatX<S>& A, const MatX<S>& TAU) override {
    q_ = Q;
    v_ = V;
    a_ = A;
    tau_ = TAU;
    qdd_out_.resize(V.rows(), V.cols());
    tau_out_.resize(V.rows(), V.cols());
  }

  MatX<S> check_aba() override {
    ok(runner_.aba(q_, v_, tau_, qdd_out_), "aba");
    return qdd_out_;
  }
  MatX<S> check_rnea() override {
    ok(runner_.rnea(q_, v_, a_, tau_out_), "rnea");
    return tau_out_;
  }

  void time_aba() override {
    runner_.aba(q_, v_, tau_, qdd_out_);
    escape(qdd_out_.data());
  }
  void time_rnea() override {
    runner_.rnea(q_, v_, a_, tau_out_);
    escape(tau_out_.data());
  }

 private:
  void ok(const BatchStatus& status, const char* call) const {
    if (!status.ok())
      throw std::runtime_error(library_ + " batch " + call + ": " + std::to_string(status.failures) +
                               " states failed, the first " + std::to_string(status.first_failed));
  }

  Model<S> model_;  // before runner_, which keeps a pointer to it
  Runner runner_;
  std::string library_;
  MatX<S> q_, v_, a_, tau_, qdd_out_, tau_out_;
};

template <class S>
std::unique_ptr<BatchPeer<S>> make(Model<S> model, bool lanes) {
  if (lanes) return std::make_unique<TreedynBatch<S, LaneBatchRunner<S>>>(std::move(model), "treedyn-lanes");
  return std::make_unique<TreedynBatch<S, BatchRunner<S>>>(std::move(model), "treedyn");
}

}  // namespace

std::unique_ptr<BatchPeer<double>> make_treedyn_batch_double(const Robot& robot, bool lanes) {
  return make<double>(treedyn_model(robot), lanes);
}
std::unique_ptr<BatchPeer<float>> make_treedyn_batch_float(const Robot& robot, bool lanes) {
  return make<float>(treedyn_model(robot).cast<float>(), lanes);
}
int treedyn_lane_width_double() { return native_lane_width<double>; }
int treedyn_lane_width_float() { return native_lane_width<float>; }

}  // namespace treedyn::peers
