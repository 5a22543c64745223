#pragma once
// A vector that keeps up to N elements inside itself and allocates only beyond that (small-buffer
// storage). The model's tagged duals hold one or two tags almost always, and a heap vector for
// each of their few coefficients made malloc and free the largest cost of probing comparisons.
//
// Only what its users need: value semantics, contiguous storage, the std::vector subset below.
// Elements must be default-constructible and copy-assignable (scalars, intervals, tags).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace adsem {

template <class T, std::size_t N> class InlineVector {
public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVector() = default;
  // One element, written into the inline storage (a Dual's constant term: the model makes one at
  // every number, where the general constructors test the capacity and copy a range).
  InlineVector(std::in_place_t, const T& value) : size_(1) { storage_.inline_items[0] = value; }
  InlineVector(std::size_t count, const T& value) { assign(count, value); }
  InlineVector(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  template <class It> InlineVector(It first, It last) { assign(first, last); }

  // Copies and moves construct the member in use directly (no zeroed array to overwrite, no test
  // of which member this vector held): a Dual is moved at every model step.
  // The heap's copy is out of line: inline, it made every copy save and restore six registers
  // for a path that a Dual of one or two tags never takes.
  InlineVector(const InlineVector& other)
      : storage_(typename Storage::Empty{}), size_(other.size_) {
    if (other.on_heap()) [[unlikely]] {
      construct_from_heap(other);
      return;
    }
    std::construct_at(&storage_.inline_items, other.storage_.inline_items);
  }
  InlineVector& operator=(const InlineVector& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  InlineVector(InlineVector&& other) noexcept
      : storage_(typename Storage::Empty{}), size_(other.size_), capacity_(other.capacity_) {
    if (other.on_heap()) {
      std::construct_at(&storage_.heap, std::move(other.storage_.heap));
      other.use_inline();
    } else {
      std::construct_at(&storage_.inline_items, std::move(other.storage_.inline_items));
    }
    other.size_ = 0;
  }
  InlineVector& operator=(InlineVector&& other) noexcept {
    if (this != &other) take(std::move(other));
    return *this;
  }
  // The heap's release out of line, so that the inline case (a Dual's, at every model step) is a
  // test that inlines into the owner's destructor.
  ~InlineVector() {
    if (on_heap()) [[unlikely]] {
      destroy_heap();
      return;
    }
    if constexpr (!std::is_trivially_destructible_v<T>) std::destroy_at(&storage_.inline_items);
  }

  T* data() { return on_heap() ? storage_.heap.get() : storage_.inline_items.data(); }
  const T* data() const { return on_heap() ? storage_.heap.get() : storage_.inline_items.data(); }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void clear() { size_ = 0; }
  void reserve(std::size_t wanted) {
    if (wanted <= capacity_) return;
    if (wanted > std::numeric_limits<Count>::max()) throw std::length_error("InlineVector");
    auto grown = std::make_unique<T[]>(wanted);
    std::move(begin(), end(), grown.get());
    use_heap(std::move(grown));
    capacity_ = static_cast<Count>(wanted);
  }
  void resize(std::size_t count, const T& value = T()) {
    reserve(count);
    std::fill(data() + std::min<std::size_t>(size_, count), data() + count, value);
    size_ = static_cast<Count>(count);
  }
  void assign(std::size_t count, const T& value) {
    size_ = 0;
    resize(count, value);
  }
  template <class It> void assign(It first, It last) {
    const auto count = static_cast<std::size_t>(std::distance(first, last));
    size_ = 0;
    reserve(count);
    std::copy(first, last, data());
    size_ = static_cast<Count>(count);
  }
  void push_back(const T& value) {
    if (size_ == capacity_) reserve(2 * std::size_t{capacity_});
    data()[size_++] = value;
  }
  // Removes the element at `at`, keeping the order of the others.
  void erase(const T* at) {
    T* const first = data() + (at - data());
    std::move(first + 1, end(), first);
    --size_;
  }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  // 32-bit counts: a Dual holds two of these vectors and is copied and moved at every model
  // step, so 8 bytes per vector are a tenth of its size (no user comes near 2^32 elements).
  using Count = std::uint32_t;
  static_assert(N > 0 && N <= std::numeric_limits<Count>::max());

  // The inline elements and the heap buffer share their bytes: a vector uses one or the other,
  // told apart by the capacity (the heap is taken only beyond N elements).
  union Storage {
    struct Empty {};
    Storage() : inline_items{} {}
    explicit Storage(Empty) {} // the constructor then makes one member
    ~Storage() {}              // the owner destroys the member in use
    std::array<T, N> inline_items;
    std::unique_ptr<T[]> heap;
  };

  bool on_heap() const { return capacity_ > N; }
  void use_heap(std::unique_ptr<T[]> buffer) {
    if (on_heap()) {
      storage_.heap = std::move(buffer);
      return;
    }
    std::destroy_at(&storage_.inline_items);
    std::construct_at(&storage_.heap, std::move(buffer));
  }
  void use_inline() {
    if (!on_heap()) return;
    std::destroy_at(&storage_.heap);
    std::construct_at(&storage_.inline_items);
    capacity_ = N;
  }

  [[gnu::noinline]] void destroy_heap() { std::destroy_at(&storage_.heap); }
  [[gnu::noinline]] void construct_from_heap(const InlineVector& other) {
    std::construct_at(&storage_.inline_items);
    size_ = 0;
    assign(other.begin(), other.end());
  }
  [[gnu::noinline]] void assign_from_heap(const InlineVector& other) {
    assign(other.begin(), other.end());
  }

  // An inline source is copied as the whole fixed-size array: a few register moves, where a copy
  // of `size_` elements is a call to memmove (measurable on duals of one or two tags).
  void copy_from(const InlineVector& other) {
    if (other.on_heap()) [[unlikely]] {
      assign_from_heap(other);
      return;
    }
    use_inline();
    storage_.inline_items = other.storage_.inline_items;
    size_ = other.size_;
  }
  void take(InlineVector&& other) {
    if (other.on_heap()) {
      use_heap(std::move(other.storage_.heap));
      capacity_ = other.capacity_;
      other.use_inline();
    } else {
      use_inline();
      storage_.inline_items = std::move(other.storage_.inline_items);
    }
    size_ = other.size_;
    other.size_ = 0;
  }

  Storage storage_;
  Count size_ = 0;
  Count capacity_ = N;
};

} // namespace adsem
