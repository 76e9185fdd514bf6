// No allocation in frame_velocity_derivatives and frame_acceleration_derivatives (frame_motion_derivatives.hpp),
// dynamic and fixed N, into caller-sized matrices and into blocks of a larger one, in the three axes; with q and
// in the forms that read the last body_motion.
#include "no_alloc/no_alloc_support.hpp"
#include "treedyn/algorithms/frame_motion_derivatives.hpp"

namespace {

/// Both calls on (model, data), first call and steady state, inside the guard; outputs built before.
template <class T, int N>
void require_frame_motion_derivatives_allocation_free(const Model<T, N>& model, Data<T, N>& data) {
  using Vec = Eigen::Matrix<T, N, 1>;
  using Mat = Eigen::Matrix<T, 6, N>;
  const Eigen::Matrix<T, Eigen::Dynamic, 1> q_dyn = random_configuration(model, 7);
  const Eigen::Matrix<T, Eigen::Dynamic, 1, Eigen::ColMajor, (N == Dynamic ? Dynamic : 2 * N), 1> q = q_dyn;
  const Vec qd = Vec::LinSpaced(model.nv(), T(-1), T(1));
  const Vec qdd = Vec::LinSpaced(model.nv(), T(1), T(-1));
  const Transform<T> placement = xlt(Vector3<T>(T(0.1), T(0), T(0.2)));
  Mat dv_dq(6, model.nv()), dv_dqd(6, model.nv()), da_dq(6, model.nv()), da_dqd(6, model.nv());
  Eigen::Matrix<T, 12, N> stacked(12, model.nv());  // outputs as blocks of a caller's matrix
  const int tip = model.nbodies() - 1;
  for (int call = 0; call < 2; ++call) {
    INFO((call == 0 ? "first call" : "steady state"));
    for (const ReferenceFrame ref : {ReferenceFrame::local, ReferenceFrame::world_aligned, ReferenceFrame::world_origin}) {
      CHECK(allocations_in([&] {
              (void)frame_velocity_derivatives(model, data, tip, placement, q, qd, ref, dv_dq, dv_dqd);
              (void)frame_acceleration_derivatives(model, data, tip, placement, q, qd, qdd, ref, dv_dq, da_dq,
                                                   da_dqd, dv_dqd);
              (void)frame_velocity_derivatives(model, data, tip, placement, q, qd, ref, stacked.topRows(6),
                                               stacked.bottomRows(6));
              // the forms without q, after one body_motion, for two frames
              (void)body_motion(model, data, q, qd, qdd);
              (void)frame_velocity_derivatives(model, data, tip, placement, ref, dv_dq, dv_dqd);
              (void)frame_acceleration_derivatives(model, data, 0, placement, ref, dv_dq, da_dq, da_dqd, dv_dqd);
            }) == 0);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("frame motion derivatives never allocate", "[no_alloc][frame_motion_derivatives]", float, double) {
  using T = TestType;
  for (const Model<double>& md : {robots::humanoid30<double>(), robots::arm7<double>(), robots::random_tree<double>(12, 4)}) {
    const Model<T> model = md.cast<T>();
    Data<T> data(model);
    require_frame_motion_derivatives_allocation_free(model, data);
  }
  const Model<T, 30> fixed = robots::humanoid30<double>().cast<T, 30>();
  Data<T, 30> data(fixed);
  require_frame_motion_derivatives_allocation_free(fixed, data);
}
