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
#include <initializer_list>
#include <iterator>
#include <memory>
#include <utility>

namespace adsem {

template <class T, std::size_t N> class InlineVector {
public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVector() = default;
  InlineVector(std::size_t count, const T& value) { assign(count, value); }
  InlineVector(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  template <class It> InlineVector(It first, It last) { assign(first, last); }

  InlineVector(const InlineVector& other) { copy_from(other); }
  InlineVector& operator=(const InlineVector& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  InlineVector(InlineVector&& other) noexcept { take(std::move(other)); }
  InlineVector& operator=(InlineVector&& other) noexcept {
    if (this != &other) take(std::move(other));
    return *this;
  }

  T* data() { return heap_ ? heap_.get() : inline_.data(); }
  const T* data() const { return heap_ ? heap_.get() : inline_.data(); }
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
    if (wanted <= capacity()) return;
    auto grown = std::make_unique<T[]>(wanted);
    std::move(begin(), end(), grown.get());
    heap_ = std::move(grown);
    heap_capacity_ = wanted;
  }
  void resize(std::size_t count, const T& value = T()) {
    reserve(count);
    std::fill(data() + std::min(size_, count), data() + count, value);
    size_ = count;
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
    size_ = count;
  }
  void push_back(const T& value) {
    if (size_ == capacity()) reserve(2 * capacity());
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
  std::size_t capacity() const { return heap_ ? heap_capacity_ : N; }

  // An inline source is copied as the whole fixed-size array: a few register moves, where a copy
  // of `size_` elements is a call to memmove (measurable on duals of one or two tags).
  void copy_from(const InlineVector& other) {
    if (other.heap_) {
      assign(other.begin(), other.end());
      return;
    }
    heap_.reset();
    inline_ = other.inline_;
    size_ = other.size_;
  }
  void take(InlineVector&& other) {
    if (other.heap_) {
      heap_ = std::move(other.heap_);
      heap_capacity_ = other.heap_capacity_;
    } else {
      heap_.reset();
      inline_ = std::move(other.inline_);
    }
    size_ = other.size_;
    other.size_ = 0;
  }

  std::array<T, N> inline_{};
  std::unique_ptr<T[]> heap_; // set once the elements outgrow inline_
  std::size_t heap_capacity_ = 0;
  std::size_t size_ = 0;
};

} // namespace adsem
