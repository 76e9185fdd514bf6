// treedyn as a peer (peer.hpp): the model from treedyn's own URDF loader, its kernels as its users call
// them. The float model is the double one rounded (Model::cast), as Pinocchio's float model is.
#include <stdexcept>
#include <utility>

#include "peer.hpp"
#include "treedyn/algorithms/algorithms.hpp"
#include "treedyn/algorithms/minverse_aba.hpp"
#include "treedyn/urdf/build_model.hpp"

namespace treedyn::peers {
namespace {

Model<double> load_double(const Robot& robot) {
  urdf::Options options;
  options.floating_base = robot.floating;
  options.inertia = urdf::InertiaPolicy::strict;  // the robots are valid: load them exactly as written
  return urdf::load<double>(robot.urdf, options).model;
}

template <class S>
class TreedynPeer final : public Peer<S> {
 public:
  explicit TreedynPeer(Model<S> model) : model_(std::move(model)), data_(model_), ws_(model_) {}

  std::string library() const override { return "treedyn"; }
  int nv() const override { return model_.nv(); }

  void set_state(const VecX<S>& q, const VecX<S>& v, const VecX<S>& a, const VecX<S>& tau) override {
    q_ = q;
    v_ = v;
    a_ = a;
    tau_ = tau;
  }

  VecX<S> check_rnea() override { return rnea(model_, data_, q_, v_, a_); }
  VecX<S> check_bias() override { return bias(model_, data_, q_, v_); }
  MatX<S> check_crba() override {
    crba(model_, data_, q_);
    return dense_H(model_, data_);
  }
  VecX<S> check_aba() override { return aba(model_, data_, q_, v_, tau_); }
  MatX<S> check_minverse() override {
    const MatX<S> Minv = minverse_aba(model_, data_, ws_, q_);
    if (!ws_.status.ok()) throw std::runtime_error("treedyn peer: minverse_aba reported a failed pivot");
    return Minv;
  }

  void time_rnea() override { escape(rnea(model_, data_, q_, v_, a_).data()); }
  void time_bias() override { escape(bias(model_, data_, q_, v_).data()); }
  void time_crba() override { escape(crba(model_, data_, q_).data()); }
  void time_aba() override { escape(aba(model_, data_, q_, v_, tau_).data()); }
  void time_minverse() override { escape(minverse_aba(model_, data_, ws_, q_).data()); }

 private:
  static void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

  Model<S> model_;
  Data<S> data_;
  MinverseAbaWorkspace<S> ws_;
  VecX<S> q_, v_, a_, tau_;
};

}  // namespace

std::vector<JointSlot> treedyn_layout(const Robot& robot) {
  const Model<double> model = load_double(robot);
  std::vector<JointSlot> out;
  for (int i = 0; i < model.nbodies(); ++i)
    out.push_back({model.joint_name(i), model.joint(i).nq(), model.joint(i).nv(), model.q_offset(i), model.v_offset(i)});
  return out;
}

std::unique_ptr<Peer<double>> make_treedyn_double(const Robot& robot) {
  return std::make_unique<TreedynPeer<double>>(load_double(robot));
}

std::unique_ptr<Peer<float>> make_treedyn_float(const Robot& robot) {
  return std::make_unique<TreedynPeer<float>>(load_double(robot).cast<float>());
}

}  // namespace treedyn::peers
