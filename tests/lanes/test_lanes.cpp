// treedyn::Lanes (include/treedyn/lanes/lanes.hpp, docs/lanes.md): the lane scalar itself, and the RNEA
// instantiated on it, lane by lane against the scalar RNEA on the same state.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <vector>

#include <catch2/catch.hpp>

#include "lanes/lanes_support.hpp"
#include "support/robot_cases.hpp"
#include "support/tolerance.hpp"
#include "treedyn/algorithms/rnea.hpp"
#include "treedyn/lanes/lanes.hpp"
#include "treedyn/model/data.hpp"

namespace {

using treedyn::Lanes;

/// |got − ref| in units of the last place of ref rounded to T (ref computed in long double).
template <class T>
double ulps(T got, long double ref) {
  const T r = std::fabs(static_cast<T>(ref));
  const T ulp = std::nextafter(r, std::numeric_limits<T>::infinity()) - r;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / static_cast<long double>(ulp));
}

/// The worst sin and cos errors (ulps against sinl/cosl) over 400 000 points spread over [−lim, lim].
template <class T, int W>
std::pair<double, double> sin_cos_ulps(double lim) {
  double ws = 0, wc = 0;
  const long n = 400000;
  for (long k = 0; k < n; k += W) {
    Lanes<T, W> x;
    T xv[W];
    for (int j = 0; j < W; ++j) {
      const double t = static_cast<double>(k + j) / static_cast<double>(n);
      xv[j] = static_cast<T>((2 * t - 1) * lim * (0.5 + 0.5 * std::sin(1e3 * t)));
      x.set_lane(j, xv[j]);
    }
    const Lanes<T, W> s = sin(x), c = cos(x);
    for (int j = 0; j < W; ++j) {
      ws = std::max(ws, ulps<T>(s.lane(j), sinl(static_cast<long double>(xv[j]))));
      wc = std::max(wc, ulps<T>(c.lane(j), cosl(static_cast<long double>(xv[j]))));
    }
  }
  return {ws, wc};
}

}  // namespace

TEST_CASE("Lanes: arithmetic, comparisons, masks and select act lane by lane") {
  using L = Lanes<double, 4>;
  L a, b;
  const double av[4] = {1.5, -2.0, 3.25, 0.0}, bv[4] = {0.5, -2.0, -1.0, 4.0};
  for (int i = 0; i < 4; ++i) {
    a.set_lane(i, av[i]);
    b.set_lane(i, bv[i]);
  }
  const L s = 2 * a + b - 1.0, q = a / b, neg = -a;
  L c = a;
  c += b;
  c *= 3.0;
  c -= a;
  c /= 2.0;
  const auto lt = a < b, eq = a == b, ge = a >= b;
  const L m = treedyn::select(lt || eq, a, b);
  for (int i = 0; i < 4; ++i) {
    CHECK(s.lane(i) == 2 * av[i] + bv[i] - 1.0);
    CHECK(q.lane(i) == av[i] / bv[i]);
    CHECK(neg.lane(i) == -av[i]);
    CHECK(c.lane(i) == ((av[i] + bv[i]) * 3.0 - av[i]) / 2.0);
    CHECK(lt.lane(i) == (av[i] < bv[i]));
    CHECK(eq.lane(i) == (av[i] == bv[i]));
    CHECK(ge.lane(i) == (av[i] >= bv[i]));
    CHECK(m.lane(i) == (av[i] <= bv[i] ? av[i] : bv[i]));
    CHECK(sqrt(abs(a)).lane(i) == std::sqrt(std::fabs(av[i])));  // both correctly rounded
  }
  CHECK(any(lt));
  CHECK_FALSE(all(lt));
  CHECK_FALSE(none(eq));
  CHECK(all(lt || !lt));
  CHECK(none(lt && !lt));
  L x(1.0);
  x.set_lane(2, std::numeric_limits<double>::quiet_NaN());
  x.set_lane(3, std::numeric_limits<double>::infinity());
  const auto fin = isfinite(x), nan = isnan(x), inf = isinf(x);
  CHECK((fin.lane(0) && fin.lane(1) && !fin.lane(2) && !fin.lane(3)));
  CHECK((!nan.lane(1) && nan.lane(2) && !nan.lane(3)));
  CHECK((!inf.lane(2) && inf.lane(3)));
  CHECK(Eigen::NumTraits<L>::epsilon().lane(3) == std::numeric_limits<double>::epsilon());
  CHECK(L(7).lane(0) == 7.0);  // broadcast from an int
}

namespace {
/// Arithmetic, sqrt, sin, comparisons and select on Lanes<T, W> lane by lane against T, whatever the chunk
/// width the operations compute in (docs/lanes.md#alignment): one native register, several, or part of one.
template <class T, int W>
void check_chunked() {
  using L = Lanes<T, W>;
  STATIC_REQUIRE(L::chunks * L::chunk_width == W);
  L a, b;
  T av[W], bv[W];
  for (int i = 0; i < W; ++i) {
    av[i] = static_cast<T>(0.25 * i - 1.5);
    bv[i] = static_cast<T>(2.0 - 0.5 * i);
    a.set_lane(i, av[i]);
    b.set_lane(i, bv[i]);
  }
  L c = a;
  c *= b;
  c -= 1;
  const L d = (a + b) * a / b - c, s = sin(a), r = sqrt(abs(b)), m = treedyn::select(a < b, a, -b), mn = min(a, b), mx = max(a, b);
  const auto lt = a < b;
  for (int i = 0; i < W; ++i) {
    CHECK(c.lane(i) == av[i] * bv[i] - T(1));
    CHECK(d.lane(i) == (av[i] + bv[i]) * av[i] / bv[i] - (av[i] * bv[i] - T(1)));
    CHECK(std::fabs(s.lane(i) - std::sin(av[i])) <= 4 * std::numeric_limits<T>::epsilon());
    CHECK(r.lane(i) == std::sqrt(std::fabs(bv[i])));  // both correctly rounded
    CHECK(lt.lane(i) == (av[i] < bv[i]));
    CHECK(m.lane(i) == (av[i] < bv[i] ? av[i] : -bv[i]));
    CHECK(mn.lane(i) == std::min(av[i], bv[i]));
    CHECK(mx.lane(i) == std::max(av[i], bv[i]));
  }
}
}  // namespace

TEST_CASE("Lanes: every chunk width (W of one, several or part of a native register) acts lane by lane") {
  check_chunked<float, 1>();
  check_chunked<float, 3>();
  check_chunked<float, 6>();
  check_chunked<float, 16>();
  check_chunked<double, 2>();
  check_chunked<double, 3>();
  check_chunked<double, 8>();
  check_chunked<float, treedyn::native_lane_width<float>>();
  STATIC_REQUIRE(Lanes<float, treedyn::native_lane_width<float>>::chunks == 1);
  STATIC_REQUIRE(treedyn::native_lane_width<double> * 2 == treedyn::native_lane_width<float>);
}

TEST_CASE("Lanes: storage no more aligned than the heap gives, and correct at a 16-but-not-32-aligned address") {
  // The regression of the first merge (docs/lanes.md#alignment): Lanes<float, 8> held a fixed_size_simd
  // (alignof 32) and Eigen's heap storage, aligned to 16, made its stores misaligned (UBSan). Here the
  // storage asks at most the default new alignment, and the operations work at an address that is 16- but
  // not 32-aligned (the asan preset's UBSan checks every access of this test).
  STATIC_REQUIRE(alignof(Lanes<float, 8>) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  STATIC_REQUIRE(alignof(Lanes<double, 4>) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  STATIC_REQUIRE(alignof(Lanes<float, 16>) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  STATIC_REQUIRE(sizeof(Lanes<float, 8>) == 8 * sizeof(float));
  STATIC_REQUIRE(alignof(Lanes<float, 1>) == alignof(float));
  using L = Lanes<float, 8>;
  alignas(64) unsigned char buffer[3 * sizeof(L) + 16];
  L* p = reinterpret_cast<L*>(buffer + 16);  // 16 mod 64: not 32-aligned
  new (p) L(1.5f);
  new (p + 1) L(2);
  for (int j = 0; j < 8; ++j) p[1].set_lane(j, static_cast<float>(j));
  new (p + 2) L(p[0] * p[1] + 1.0f);
  p[2] += p[0];
  for (int j = 0; j < 8; ++j) CHECK(p[2].lane(j) == 1.5f * static_cast<float>(j) + 1.0f + 1.5f);
  // A dynamic Eigen vector of lanes (heap storage from Eigen's allocator), filled and summed.
  Eigen::Matrix<L, Eigen::Dynamic, 1> v(5);
  for (Eigen::Index k = 0; k < v.size(); ++k) v(k) = L(static_cast<float>(k));
  L sum(0);
  for (Eigen::Index k = 0; k < v.size(); ++k) sum += v(k) * v(k);
  for (int j = 0; j < 8; ++j) CHECK(sum.lane(j) == 30.0f);
}

TEST_CASE("Lanes: sin and cos within 3 ulps (float, |x| <= 1e4) and 2 ulps (double, |x| <= 1e6) of sinl/cosl") {
  // Measured (docs/lanes.md#sin-and-cos): float ≤ 2.06 ulps, double ≤ 1.47 ulps on this grid.
  for (const double lim : {4.0, 100.0, 1e4}) {
    const auto [s, c] = sin_cos_ulps<float, 8>(lim);
    INFO("float |x| <= " << lim << ": sin " << s << " ulps, cos " << c << " ulps");
    CHECK(s <= 3.0);
    CHECK(c <= 3.0);
  }
  for (const double lim : {4.0, 1e4, 1e6}) {
    const auto [s, c] = sin_cos_ulps<double, 4>(lim);
    INFO("double |x| <= " << lim << ": sin " << s << " ulps, cos " << c << " ulps");
    CHECK(s <= 2.0);
    CHECK(c <= 2.0);
  }
}

namespace {

using treedyn::test::LaneVector;
using treedyn::test::pack;

/// RNEA over Lanes<T, W> on W random states of each robot equals the scalar RNEA on each state within
/// c·n·ε(T)·(1 + |τ|∞), n the number of bodies. Not bitwise: the lanes' sin/cos differ from libm's by up
/// to 2 ulps, and Eigen evaluates the scalar path's 3-vector reductions in packets (another summation
/// order), while Lanes coefficients are summed in order. Returns the largest error / (n ε (1 + |τ|∞)).
template <class T, int W>
double rnea_lanes_against_scalar(double c) {
  return treedyn::test::lanes_against_scalar<T, W>(
      10, 4300, c,
      [](const auto& m, auto& d, const auto& q, const auto& qd, const auto& qdd) {
        return treedyn::test::dense(treedyn::rnea(m, d, q, qd, qdd));
      },
      [](const auto&, const auto&, int) { return 1.0; });
}

}  // namespace

TEST_CASE("rnea over Lanes<double, 4> equals the scalar double rnea lane by lane") {
  const double worst = rnea_lanes_against_scalar<double, 4>(4.0);
  WARN("double lanes: worst |error| / (n eps (1 + |tau|)) = " << worst);
}

TEST_CASE("rnea over Lanes<float, 8> equals the scalar float rnea lane by lane") {
  const double worst = rnea_lanes_against_scalar<float, 8>(4.0);
  WARN("float lanes: worst |error| / (n eps (1 + |tau|)) = " << worst);
}

TEST_CASE("rnea over Lanes: a zero quaternion in one lane gives NaN there and leaves the other lanes bit for bit") {
  using L = Lanes<double, 4>;
  const treedyn::Model<double> md = treedyn::robots::humanoid30<double>();
  const treedyn::Model<L> ml = md.cast<L>();
  treedyn::Data<L> dl(ml);
  std::vector<Eigen::VectorXd> q, qd, qdd;
  for (int j = 0; j < 4; ++j) {
    const auto s = treedyn::test::random_state(md, 77u + static_cast<std::uint64_t>(j));
    q.push_back(s.q);
    qd.push_back(s.qd);
    qdd.push_back(s.qdd);
  }
  const LaneVector<double, 4> good = treedyn::rnea(ml, dl, pack<double, 4>(q), pack<double, 4>(qd), pack<double, 4>(qdd));
  int quat = -1;  // the first body with a quaternion
  for (int i = 0; i < md.nbodies() && quat < 0; ++i)
    if (md.joint(i).nq() == 4 || md.joint(i).nq() == 7) quat = md.q_offset(i) + (md.joint(i).nq() == 7 ? 3 : 0);
  REQUIRE(quat >= 0);
  q[1].segment<4>(quat).setZero();
  const LaneVector<double, 4> bad = treedyn::rnea(ml, dl, pack<double, 4>(q), pack<double, 4>(qd), pack<double, 4>(qdd));
  int nan_entries = 0;
  for (Eigen::Index k = 0; k < bad.size(); ++k) {
    nan_entries += std::isnan(bad(k).lane(1)) ? 1 : 0;
    for (const int j : {0, 2, 3}) CHECK(bad(k).lane(j) == good(k).lane(j));
  }
  CHECK(nan_entries == bad.size());  // a failing state is NaN throughout (detail::nan_whole_failed_lanes)
}
